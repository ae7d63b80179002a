// The assistant's rate: messages per operator per window, counted in the
// store, so it holds across servers. The turn's claim has locked the
// operator's row (Turns.free), so one operator's messages are counted one at
// a time on every server.
import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config.js';
import { tooMany } from '../errors.js';
import { assistantSends } from '../store/schema.js';

/** The window's sends before this message. */
export interface RecentSends {
  sent: number;
  oldest: string | Date | null;
}

/**
 * The message counted against the rate, for the claim's one statement after
 * its lock: CTEs `recent` (the window's sends before it; select `sent` and
 * `oldest` from it) and `counted`. `check` refuses with 429 when the window
 * was full; the claim's transaction then stores nothing, this count included.
 */
export function countMessage(operatorId: string, rate: Config['assistantRate']): { ctes: SQL; check(recent: RecentSends | undefined): void } {
  const now = Date.now();
  const since = new Date(now - rate.windowSeconds * 1000);
  return {
    ctes: sql`recent as (
      select count(*)::int as sent, min(at) as oldest from ${assistantSends}
      where operator_id = ${operatorId} and at > ${since.toISOString()}
    ), counted as (
      insert into ${assistantSends} (operator_id, at) select ${operatorId}, ${new Date(now).toISOString()} from recent where sent < ${rate.messages}
    )`,
    check(recent) {
      if (!recent || recent.sent < rate.messages) return;
      const oldest = recent.oldest ? new Date(recent.oldest).getTime() : now;
      const retryAfter = Math.max(1, Math.ceil((oldest + rate.windowSeconds * 1000 - now) / 1000));
      throw tooMany(
        `you sent ${recent.sent} messages to the assistant in the last ${describeWindow(rate.windowSeconds)}, the most allowed; try again in ${retryAfter} s`,
        retryAfter,
      );
    },
  };
}

function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
