// Deliveries as the senders take them: any server claims what is due with
// FOR UPDATE SKIP LOCKED, so two servers never take one delivery; a claim
// counts the try and moves its next time past the try's lease, so what a
// sender that died held is due again once the lease ends. A try's outcome is
// recorded only by the claim it belongs to (its count of tries).
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../store/db.js';
import { webhookDeliveries } from '../store/schema.js';
import type { StoredPayload } from './payloads.js';

export interface Claimed {
  id: string;
  webhook: string;
  url: string;
  sealedSecret: string;
  payload: StoredPayload;
  /** Tries so far, this one included. */
  attempts: number;
}

export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    db,
    sql`
    update webhook_deliveries d
    set attempts = d.attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    from webhooks w
    where w.id = d.webhook_id and d.id in (
      select dd.id from webhook_deliveries dd join webhooks ww on ww.id = dd.webhook_id
      where dd.status = 'pending' and dd.next_attempt_at <= now() and ww.active
      order by dd.next_attempt_at
      limit ${limit}
      for update of dd skip locked)
    returning d.id, d.webhook_id as webhook, w.url, w.sealed_secret as "sealedSecret", d.payload, d.attempts`,
  );
}

export interface TryOutcome {
  statusCode: number | null;
  error: string | null;
}

/** A try's outcome: delivered on a 2xx; else due again after `retryInMs`, or failed when that is null. */
export async function recordTry(db: Db, claimed: Claimed, outcome: TryOutcome, retryInMs: number | null): Promise<void> {
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const status = delivered ? 'delivered' : retryInMs === null ? 'failed' : 'pending';
  await db
    .update(webhookDeliveries)
    .set({
      status,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      ...(delivered ? { deliveredAt: sql`now()` } : {}),
      ...(status === 'pending' ? { nextAttemptAt: sql`now() + ${retryInMs} * interval '1 millisecond'` } : {}),
    })
    .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.attempts, claimed.attempts), eq(webhookDeliveries.status, 'pending')));
}
