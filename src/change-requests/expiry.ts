// Expiry: a request nobody decided within AION_CHANGE_REQUEST_TTL expires, by
// the store's clock, once across servers (a conditional update); its proposal
// fails, so its thread stops waiting. Every server sweeps now and then, and
// before it lists or decides.
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { changeRequests, proposals } from '../store/schema.js';
import { threadChangeTopic } from '../turns/topics.js';
import { stepEntry, type ChangeRequestDeps } from './deps.js';
import { selectRequests } from './records.js';
import { changeRequestTopic } from './topics.js';
import { sentenceOf, factsOf } from './views.js';

export const EXPIRED = 'change_request:expire';

export async function expireDue(deps: ChangeRequestDeps): Promise<void> {
  const expired = await deps.changes.transaction(deps.db, async (tx, touch) => {
    const due = await tx
      .update(changeRequests)
      .set({ status: 'expired', decidedAt: sql`now()` })
      .where(and(eq(changeRequests.status, 'pending'), lte(changeRequests.expiresAt, sql`now()`)))
      .returning({ id: changeRequests.id });
    if (due.length === 0) return 0;
    const ids = due.map((d) => d.id);
    for (const stored of await selectRequests(tx).where(inArray(changeRequests.id, ids))) {
      const { id, threadId, requesterId } = stored.request;
      await failProposal(tx, id, `its change request ${sentenceOf(factsOf(stored))}`);
      await deps.audit.write(tx, stepEntry(EXPIRED, stored, null, {}));
      touch(changeRequestTopic({ project: stored.project, id, status: 'expired' }));
      if (threadId) touch(threadChangeTopic(requesterId, { thread: threadId, what: 'decision' }));
    }
    return due.length;
  });
  for (let i = 0; i < expired; i++) deps.metrics.changeRequest('expired');
}

/** The proposal waiting on a request that can never run fails with why, so its thread stops waiting. */
export async function failProposal(tx: Db, changeRequestId: string, error: string): Promise<void> {
  await tx
    .update(proposals)
    .set({ status: 'failed', result: { error }, decidedAt: sql`now()` })
    .where(and(eq(proposals.changeRequestId, changeRequestId), eq(proposals.status, 'requested')));
}

/** Sweeps every `ms` (unreferenced: it never holds the process open) until the returned stop is called. */
export function sweepEvery(deps: ChangeRequestDeps, ms: number, log: (error: unknown) => void): () => void {
  const timer = setInterval(() => void expireDue(deps).catch(log), ms);
  timer.unref();
  return () => clearInterval(timer);
}
