// Approvals of a change request (DESIGN.md §14): `approvals_required` N counts
// distinct people, the requester's ask being the first, so a request runs once
// N − 1 approvals are in, each from another operator — or from the requester
// too where the environment lets them approve (`requester_may_approve`). Who
// approved is the server's record of the credential. An approval counts only
// for the change it saw: when what the request would change moves, the
// approvals given so far are dismissed (kept, no longer counted).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { Db } from '../store/db.js';
import { changeRequestApprovals } from '../store/schema.js';
import type { Approval } from '../wire/change-request.js';
import type { StoredRequest } from './records.js';

/** The approvals that count: not dismissed. */
export function counted(stored: Pick<StoredRequest, 'approvals'>): Approval[] {
  return stored.approvals.filter((a) => a.dismissed_because === null);
}

/** How many approvals the request needs in all, by its environment's rule as it stands. */
export function approvalsNeeded(stored: Pick<StoredRequest, 'approvalsRequired'>): number {
  return Math.max(0, stored.approvalsRequired - 1);
}

/** Whether `operator`'s approval of the request counts now. */
export function hasApproved(stored: Pick<StoredRequest, 'approvals'>, operator: Operator): boolean {
  return counted(stored).some((a) => a.by === operator.name);
}

/** Records `operator`'s approval (inside the approval's transaction, the request's row locked). */
export async function recordApproval(tx: Db, id: string, operator: Operator, comment: string | null): Promise<void> {
  await tx.insert(changeRequestApprovals).values({ changeRequestId: id, operatorId: operator.id, comment });
}

/** Dismisses the approvals given so far, with what moved; answers how many were. */
export async function dismissApprovals(tx: Db, id: string, why: string): Promise<number> {
  const dismissed = await tx
    .update(changeRequestApprovals)
    .set({ dismissedAt: sql`now()`, dismissedBecause: why })
    .where(and(eq(changeRequestApprovals.changeRequestId, id), isNull(changeRequestApprovals.dismissedAt)))
    .returning({ id: changeRequestApprovals.id });
  return dismissed.length;
}

/** The approvals as the API shows them: times as ISO strings, whatever the store's JSON wrote. */
export function approvalsView(stored: Pick<StoredRequest, 'approvals'>): Approval[] {
  return stored.approvals.map((a) => ({ ...a, at: new Date(a.at).toISOString() }));
}
