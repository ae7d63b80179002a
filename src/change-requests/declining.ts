// Declining a change request, with a comment: another operator who holds its
// permission there declines it; the requester declining their own withdraws
// it. Nothing runs; the proposal that asked, if any, is rejected with why.
import { and, eq, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { forbidden } from '../errors.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { changeRequests, proposals } from '../store/schema.js';
import { threadChangeTopic } from '../turns/topics.js';
import { stepEntry, type ChangeRequestDeps, type Decider } from './deps.js';
import { expireDue } from './expiry.js';
import { assertUndecided, findVisible } from './finding.js';
import { secondsToDecision, selectRequests, type StoredRequest } from './records.js';
import { changeRequestTopic } from './topics.js';
import { decisionRefusal } from './views.js';

/** The decline's audit entry is named as the tool that declines. */
export const DECLINE = 'decline_change_request';

export async function declineRequest(deps: ChangeRequestDeps, by: Decider, id: string, comment: string): Promise<void> {
  await expireDue(deps);
  const decided = await deps.changes.transaction(deps.db, async (tx, touch) => {
    const { stored, access } = await findVisible(deps, tx, by.operator, id, true);
    assertUndecided(stored);
    const refused = decisionRefusal(stored, by.operator, access, 'decline');
    if (refused) throw forbidden(refused);
    const status: 'declined' | 'withdrawn' = stored.request.requesterId === by.operator.id ? 'withdrawn' : 'declined';
    await decide(tx, touch, stored, by.operator, status, comment);
    await tx
      .update(proposals)
      .set({ status: 'rejected', result: { error: `its change request was ${status} by ${by.operator.name}: ${comment}` }, decidedAt: sql`now()` })
      .where(and(eq(proposals.changeRequestId, id), eq(proposals.status, 'requested')));
    await deps.audit.write(tx, stepEntry(DECLINE, stored, by, { comment, status }));
    return { status, seconds: await secondsToDecision(tx, id) };
  });
  deps.metrics.changeRequest(decided.status, decided.status === 'declined' ? decided.seconds : undefined);
}

/**
 * Inside the transaction that rejects a proposal (which rejects the proposal
 * itself) or deletes a thread: the change requests still waiting for them are
 * withdrawn by the operator who did it. Answers how many were.
 */
export async function withdrawWaiting(
  deps: ChangeRequestDeps,
  tx: Db,
  touch: (topic: Topic) => void,
  of: { proposal: string } | { thread: string },
  by: Decider,
  comment: string,
): Promise<number> {
  const asked = 'proposal' in of ? eq(changeRequests.proposalId, of.proposal) : eq(changeRequests.threadId, of.thread);
  // Locked before any proposal, as approving locks them.
  const waiting = await selectRequests(tx)
    .where(and(asked, eq(changeRequests.status, 'pending')))
    .for('update', { of: changeRequests });
  for (const stored of waiting) {
    await decide(tx, touch, stored, by.operator, 'withdrawn', comment);
    await deps.audit.write(tx, stepEntry(DECLINE, stored, by, { comment, status: 'withdrawn' }));
  }
  return waiting.length;
}

async function decide(
  tx: Db,
  touch: (topic: Topic) => void,
  { request, project }: StoredRequest,
  operator: Operator,
  status: 'declined' | 'withdrawn',
  comment: string,
): Promise<void> {
  await tx
    .update(changeRequests)
    .set({ status, deciderId: operator.id, comment, decidedAt: sql`now()` })
    .where(eq(changeRequests.id, request.id));
  touch(changeRequestTopic({ project, id: request.id, status }));
  if (request.threadId) touch(threadChangeTopic(request.requesterId, { thread: request.threadId, what: 'decision' }));
}
