// Change requests as stored, with the names they refer to: the project's
// slug, the environment's name, who asked and who decided.
import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import type { Approval } from '../wire/change-request.js';
import { changeRequestApprovals, changeRequests, environments, operators, projects } from '../store/schema.js';

const requester = alias(operators, 'requester');
const decider = alias(operators, 'decider');

/** Every change request with its names; narrow it with `.where`. */
export function selectRequests(db: Db) {
  return db
    .select({
      request: changeRequests,
      project: projects.slug,
      environment: environments.name,
      requestedBy: requester.name,
      decidedBy: decider.name,
      /** By the store's clock, which every server shares. */
      expired: sql<boolean>`${changeRequests.expiresAt} <= now()`,
      /** Its environment's rule as it stands (approving reads it again under the environment's lock). */
      approvalsRequired: environments.approvalsRequired,
      requesterMayApprove: environments.requesterMayApprove,
      approvals: sql<Approval[]>`(
        select coalesce(json_agg(json_build_object('by', o.name, 'comment', a.comment, 'at', a.created_at,
          'dismissed_because', a.dismissed_because) order by a.id), '[]')
        from ${changeRequestApprovals} a join ${operators} o on o.id = a.operator_id
        where a.change_request_id = ${changeRequests.id})`,
    })
    .from(changeRequests)
    .innerJoin(projects, eq(projects.id, changeRequests.projectId))
    .innerJoin(environments, eq(environments.id, changeRequests.environmentId))
    .innerJoin(requester, eq(requester.id, changeRequests.requesterId))
    .leftJoin(decider, eq(decider.id, changeRequests.deciderId));
}

export type StoredRequest = Awaited<ReturnType<typeof selectRequests>>[number];

/** One change request, or null when the id names none; `lock` holds its row for the transaction `db`. */
export async function findRequest(db: Db, id: string, lock = false): Promise<StoredRequest | null> {
  if (!isUuid(id)) return null;
  const query = selectRequests(db).where(eq(changeRequests.id, id));
  const [row] = lock ? await query.for('update', { of: changeRequests }) : await query;
  return row ?? null;
}

/** How long the request waited for its decision, by the store's clock. */
export async function secondsToDecision(db: Db, id: string): Promise<number> {
  const [row] = await db
    .select({ seconds: sql<number>`extract(epoch from ${changeRequests.decidedAt} - ${changeRequests.createdAt})`.mapWith(Number) })
    .from(changeRequests)
    .where(eq(changeRequests.id, id));
  return row?.seconds ?? 0;
}
