// Idempotency keys in the store, shared by every server: a request sent with
// an `Idempotency-Key` claims it; a retry with the same key and body answers
// what the first answered instead of running again (Stripe's semantics). The
// request holding a key marks it `applied` in its write's own transaction,
// fenced by its attempt, so a retry that took a stalled or dead request's key
// over and that request can never both write.
import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from './db.js';
import { idempotencyKeys } from './schema.js';

/** How long a key is kept: a retry later than this runs again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Who sent which key for which request. */
export interface KeyedRequest {
  operatorId: string;
  key: string;
  /** `METHOD /path`. */
  route: string;
  requestHash: string;
}

export type Claim =
  /** This request holds the key now, as `attempt`: it runs. */
  | { kind: 'run'; attempt: string }
  /** The first request's answer, to send again. */
  | { kind: 'replay'; status: number; body: string }
  /** The key names another request (route or body): why. */
  | { kind: 'mismatch'; why: string }
  /** The first request is still running, or its write committed and its answer was lost. */
  | { kind: 'busy'; applied: boolean };

export class IdempotencyKeys {
  private sweeper: NodeJS.Timeout | null = null;

  /** `abandonAfterMs`: a request holding its key this long without writing can no longer start its write (the request bound). */
  constructor(
    private readonly db: Db,
    private readonly abandonAfterMs: number,
  ) {}

  async claim(request: KeyedRequest): Promise<Claim> {
    const attempt = randomUUID();
    const inserted = await this.db
      .insert(idempotencyKeys)
      .values({ ...request, attempt })
      .onConflictDoNothing()
      .returning({ attempt: idempotencyKeys.attempt });
    if (inserted.length > 0) return { kind: 'run', attempt };
    const [row] = await this.db
      .select({
        route: idempotencyKeys.route,
        requestHash: idempotencyKeys.requestHash,
        attempt: idempotencyKeys.attempt,
        status: idempotencyKeys.status,
        responseStatus: idempotencyKeys.responseStatus,
        response: idempotencyKeys.response,
        expired: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${msInterval(IDEMPOTENCY_TTL_MS)}`,
        abandoned: sql<boolean>`${idempotencyKeys.claimedAt} < now() - ${msInterval(this.abandonAfterMs)}`,
      })
      .from(idempotencyKeys)
      .where(this.named(request));
    // Swept between the two statements: claim it afresh.
    if (!row) return this.claim(request);
    if (row.expired) return this.takeOver(request, row.attempt, { renew: true });
    if (row.route !== request.route) {
      return { kind: 'mismatch', why: `Idempotency-Key ${request.key} was used for ${row.route} already; use a new key for a new request` };
    }
    if (row.requestHash !== request.requestHash) {
      return { kind: 'mismatch', why: `Idempotency-Key ${request.key} was used with another body already; use a new key for a new request` };
    }
    if (row.status === 'done' && row.responseStatus !== null && row.response !== null) {
      return { kind: 'replay', status: row.responseStatus, body: row.response };
    }
    // A holder that never reached its write within the bound never will: the key is free again.
    if (row.status === 'running' && row.abandoned) return this.takeOver(request, row.attempt, { renew: false });
    return { kind: 'busy', applied: row.status !== 'running' };
  }

  /**
   * Marks the key applied in the write's transaction `tx`, if `attempt` still
   * holds it; false when a retry took it over (then the write must not run).
   */
  async markApplied(tx: Db, held: KeyedRequest & { attempt: string }): Promise<boolean> {
    const marked = await tx
      .update(idempotencyKeys)
      .set({ status: 'applied' })
      .where(and(this.named(held), eq(idempotencyKeys.attempt, held.attempt), eq(idempotencyKeys.status, 'running')))
      .returning({ key: idempotencyKeys.key });
    return marked.length > 0;
  }

  /**
   * Keeps the answer for retries; a failure of the server (5xx) before the
   * write applied is forgotten instead, so a retry runs afresh.
   */
  async finish(held: KeyedRequest & { attempt: string }, status: number, body: string): Promise<void> {
    const mine = and(this.named(held), eq(idempotencyKeys.attempt, held.attempt));
    if (status >= 500) {
      const forgotten = await this.db
        .delete(idempotencyKeys)
        .where(and(mine, eq(idempotencyKeys.status, 'running')))
        .returning({ key: idempotencyKeys.key });
      if (forgotten.length > 0) return;
    }
    await this.db.update(idempotencyKeys).set({ status: 'done', responseStatus: status, response: body }).where(mine);
  }

  /** Forgets keys older than a day, now and every hour, until `close`. */
  start(onError: (error: unknown) => void): void {
    const sweep = () => void this.sweep().catch(onError);
    sweep();
    this.sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  async sweep(): Promise<number> {
    const swept = await this.db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, sql`now() - ${msInterval(IDEMPOTENCY_TTL_MS)}`))
      .returning({ key: idempotencyKeys.key });
    return swept.length;
  }

  /** The key held by `from` becomes this request's (an expired key is a new one: its request and time renewed). */
  private async takeOver(request: KeyedRequest, from: string, { renew }: { renew: boolean }): Promise<Claim> {
    const attempt = randomUUID();
    const renewed = renew
      ? { route: request.route, requestHash: request.requestHash, status: 'running' as const, responseStatus: null, response: null, createdAt: sql`now()` }
      : {};
    const taken = await this.db
      .update(idempotencyKeys)
      .set({ ...renewed, attempt, claimedAt: sql`now()` })
      .where(and(this.named(request), eq(idempotencyKeys.attempt, from), ...(renew ? [] : [eq(idempotencyKeys.status, 'running')])))
      .returning({ key: idempotencyKeys.key });
    return taken.length > 0 ? { kind: 'run', attempt } : { kind: 'busy', applied: false };
  }

  private named({ operatorId, key }: Pick<KeyedRequest, 'operatorId' | 'key'>) {
    return and(eq(idempotencyKeys.operatorId, operatorId), eq(idempotencyKeys.key, key));
  }
}

function msInterval(ms: number) {
  return sql`(${ms} * interval '1 millisecond')`;
}
