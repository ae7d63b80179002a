// The assistant's rate: messages per operator per window, counted in the
// store under a lock on the operator's row, so it holds across servers.
import { and, count, eq, gt, min } from 'drizzle-orm';
import type { Config } from '../config.js';
import { tooMany } from '../errors.js';
import type { Db } from '../store/db.js';
import { assistantSends, operators } from '../store/schema.js';

/** Inside the transaction that stores the message: counts it, or refuses with 429. */
export async function countMessage(tx: Db, operatorId: string, rate: Config['assistantRate']): Promise<void> {
  await tx.select({ id: operators.id }).from(operators).where(eq(operators.id, operatorId)).for('update');
  const now = Date.now();
  const since = new Date(now - rate.windowSeconds * 1000);
  const [recent] = await tx
    .select({ sent: count(), oldest: min(assistantSends.at) })
    .from(assistantSends)
    .where(and(eq(assistantSends.operatorId, operatorId), gt(assistantSends.at, since)));
  if (recent && recent.sent >= rate.messages) {
    const oldest = recent.oldest ? new Date(recent.oldest).getTime() : now;
    const retryAfter = Math.max(1, Math.ceil((oldest + rate.windowSeconds * 1000 - now) / 1000));
    throw tooMany(
      `you sent ${recent.sent} messages to the assistant in the last ${describeWindow(rate.windowSeconds)}, the most allowed; try again in ${retryAfter} s`,
      retryAfter,
    );
  }
  await tx.insert(assistantSends).values({ operatorId, at: new Date(now) });
}

function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
