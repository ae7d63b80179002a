// Approving a change request: another operator than the requester (or the
// requester, where the environment allows), holding its permission in its
// environment now, approves it. Until the environment's count of approvals is
// in (approvals.ts), the approval is recorded and the request waits for the
// next. The last one runs it once, through the executor as its requester
// (whose permission is checked again too), in one transaction with the
// approval's audit entry and the effect's, and the proposal that asked, if
// any, is accepted with the result. A request whose target moved is stale and
// never runs; racing approvals, on however many servers, are ordered by its
// locked row and run it once (its claim conditional).
import { and, eq, sql } from 'drizzle-orm';
import { can, inWords, PERMISSIONS } from '../access/can.js';
import { enabledOperator, type Operator } from '../access/operators.js';
import { findEnvironment, type Environment, type ProjectAccess } from '../domain/projects.js';
import { lockEnvironment } from '../domain/environment-lock.js';
import { conflict, forbidden } from '../errors.js';
import type { Db } from '../store/db.js';
import { changeRequests, proposals } from '../store/schema.js';
import type { ToolResult } from '../tools/types.js';
import { threadChangeTopic } from '../turns/topics.js';
import { stepEntry, type ChangeRequestDeps, type Decider } from './deps.js';
import { expireDue, failProposal } from './expiry.js';
import { assertUndecided, findVisible, nothingIfNotFound } from './finding.js';
import { requestFingerprint } from './fingerprint.js';
import { unsealedInput } from './opening.js';
import { findRequest, secondsToDecision, type StoredRequest } from './records.js';
import { changeRequestTopic } from './topics.js';
import { approvalsNeeded, counted, dismissApprovals, hasApproved, recordApproval } from './approvals.js';
import { decisionRefusal, factsOf, sentenceOf } from './views.js';
import { asReviewed, movedSince } from './what-changes.js';

/** The approval's audit entry is named as the tool that approves. */
export const APPROVE = 'approve_change_request';

/** Why a request can never run, found while approving it: recorded once the approval's transaction rolled back. */
interface Unrunnable {
  status: 'stale' | 'withdrawn';
  why: string;
}

/** Approves the request — the one seen, when its fingerprint is given. */
export async function approveRequest(deps: ChangeRequestDeps, by: Decider, id: string, comment: string | null, seen?: string): Promise<void> {
  await expireDue(deps);
  let unrunnable: Unrunnable | null = null;
  let outcome: 'approved' | 'failed' = 'approved';
  const seconds = await deps.changes
    .transaction(deps.db, async (tx, touch) => {
      const { stored, access } = await findVisible(deps, tx, by.operator, id, true);
      assertUndecided(stored);
      if (seen !== undefined && seen !== requestFingerprint(stored)) {
        throw conflict('this change request is not the one you saw: what it would run or change differs from what you read; read it again');
      }
      const environment = findEnvironment(access, stored.environment);
      // Ordered with every other change to the environment until this commits: what is checked stays true, its rule too.
      const rule = await lockEnvironment(tx, environment);
      const now = { ...stored, approvalsRequired: rule.approvalsRequired, requesterMayApprove: rule.requesterMayApprove };
      if (hasApproved(now, by.operator)) throw conflict(`you approved this change already; ${sentenceOf(factsOf(now))}`);
      const refused = decisionRefusal(now, by.operator, access, 'approve');
      if (refused) throw forbidden(refused);
      const { request } = stored;
      const requester = await requesterMayRun(deps, tx, stored);
      const input = unsealedInput(deps, request.input, request.sealed);
      const change = request.change;
      const moved = await movedSince(tx, { tool: request.tool, input, project: requester.project, environment: requester.environment }, change);
      if (moved) {
        unrunnable = { status: 'stale', why: moved };
        throw conflict(`this change request is stale, so it will not run: ${moved}`);
      }
      if (request.proposalId && !(await proposalWaits(tx, stored))) {
        unrunnable = { status: 'withdrawn', why: 'its proposal was decided, or its thread deleted, meanwhile' };
        throw conflict(`this change request was withdrawn: ${unrunnable.why}`);
      }
      await recordApproval(tx, id, by.operator, comment);
      const given = counted(now).length + 1;
      if (given < approvalsNeeded(now)) {
        await deps.audit.write(tx, stepEntry(APPROVE, stored, by, { comment, outcome: 'partial', approvals: given, of: approvalsNeeded(now) }));
        touch(changeRequestTopic({ project: stored.project, id, status: 'pending' }));
        if (request.threadId) touch(threadChangeTopic(request.requesterId, { thread: request.threadId, what: 'decision' }));
        return null;
      }
      const executor = deps.executor();
      const ran = await executor.batch(tx, touch, (batch) =>
        executor.run(
          { operator: requester.operator, via: request.via, threadId: request.threadId, proposalId: request.proposalId },
          request.tool,
          asReviewed(input, change),
          {
            approves: id,
            claim: (sp) => claim(sp, id, by, comment),
            settle: (sp, result) => settle(sp, id, 'accepted', result),
            batch,
          },
        ),
      );
      if (ran.is_error) {
        // Refused at the executor's own check (the roles moved under it): nothing changes, as for any refusal.
        if (ran.failure === 'forbidden') throw forbidden(`${requester.operator.name}, who asked for it, may no longer run it: ${String(ran.result.error)}`);
        outcome = 'failed';
        await decide(tx, id, by, comment, 'failed');
        await settle(tx, id, 'failed', ran.result);
      }
      await deps.audit.write(tx, stepEntry(APPROVE, stored, by, { comment, outcome }));
      touch(changeRequestTopic({ project: stored.project, id, status: outcome }));
      if (request.threadId) touch(threadChangeTopic(request.requesterId, { thread: request.threadId, what: 'decision' }));
      return secondsToDecision(tx, id);
    })
    .catch(async (error: unknown) => {
      // An expiry found inside the transaction is the sweep's to record.
      if (unrunnable) await recordUnrunnable(deps, id, by, unrunnable);
      throw error;
    });
  // A partial approval decides nothing yet.
  if (seconds !== null) deps.metrics.changeRequest(outcome, seconds);
}

/** The requester as the change runs: enabled, a member, and holding its permission there now; else Forbidden with why. */
async function requesterMayRun(
  deps: ChangeRequestDeps,
  tx: Db,
  { request, requestedBy, project, environment }: StoredRequest,
): Promise<{ operator: Operator; project: ProjectAccess; environment: Environment }> {
  const cannot = (why: string) => forbidden(`${requestedBy}, who asked for it, ${why}, so it cannot run; decline it`);
  const operator = await enabledOperator(tx, request.requesterId);
  if (!operator) throw cannot('is disabled');
  const access = await deps.projects.open(operator, project, { tx, fresh: false }).catch(nothingIfNotFound);
  if (!access) throw cannot(`is no longer a member of ${project}`);
  const target = findEnvironment(access, environment);
  const permission = PERMISSIONS.find((p) => p === request.permission);
  if (!permission || !can(access.role, permission, target)) {
    throw cannot(`may no longer ${inWords(request.permission)} on ${environment} of ${project} (their role there is ${access.role})`);
  }
  return { operator, project: access, environment: target };
}

/** Whether the proposal that asked still waits on this request (not decided otherwise, not deleted with its thread). */
async function proposalWaits(tx: Db, { request }: StoredRequest): Promise<boolean> {
  const [row] = await tx
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.changeRequestId, request.id), eq(proposals.status, 'requested')))
    .for('update');
  return row !== undefined;
}

/** The approval's claim: the request moves from pending to approved once, whoever races for it. */
async function claim(tx: Db, id: string, by: Decider, comment: string | null): Promise<string | null> {
  const changed = await decide(tx, id, by, comment, 'approved');
  return changed ? null : 'this change request was already decided';
}

/** Moves a pending request to its decision; false when it was no longer pending. */
async function decide(tx: Db, id: string, by: Decider, comment: string | null, status: 'approved' | 'failed'): Promise<boolean> {
  const changed = await tx
    .update(changeRequests)
    .set({ status, deciderId: by.operator.id, comment, decidedAt: sql`now()` })
    .where(and(eq(changeRequests.id, id), eq(changeRequests.status, 'pending')))
    .returning({ id: changeRequests.id });
  return changed.length > 0;
}

/** Stores the change's result on the request and decides the proposal that waits on it the same way. */
async function settle(tx: Db, id: string, proposal: 'accepted' | 'failed', result: ToolResult): Promise<void> {
  await tx.update(changeRequests).set({ result }).where(eq(changeRequests.id, id));
  await tx
    .update(proposals)
    .set({ status: proposal, result, decidedAt: sql`now()` })
    .where(and(eq(proposals.changeRequestId, id), eq(proposals.status, 'requested')));
}

/** Records, in a transaction of its own, that the request can never run; its proposal fails with why. */
async function recordUnrunnable(deps: ChangeRequestDeps, id: string, by: Decider, { status, why }: Unrunnable): Promise<void> {
  const recorded = await deps.changes.transaction(deps.db, async (tx, touch) => {
    const changed = await tx
      .update(changeRequests)
      .set({ status, deciderId: status === 'withdrawn' ? null : by.operator.id, result: { error: why }, decidedAt: sql`now()` })
      .where(and(eq(changeRequests.id, id), eq(changeRequests.status, 'pending')))
      .returning({ id: changeRequests.id });
    const stored = changed.length > 0 ? await findRequest(tx, id) : null;
    if (!stored) return false;
    await dismissApprovals(tx, id, why);
    await failProposal(tx, id, `its change request is ${status}: ${why}`);
    await deps.audit.write(tx, stepEntry(`change_request:${status}`, stored, by, { why }));
    touch(changeRequestTopic({ project: stored.project, id, status }));
    if (stored.request.threadId) touch(threadChangeTopic(stored.request.requesterId, { thread: stored.request.threadId, what: 'decision' }));
    return true;
  });
  if (recorded) deps.metrics.changeRequest(status);
}
