// Reading change requests: one by id, or a list — waiting for the caller to
// decide, asked by the caller, of one project — newest first, each as the
// caller reads it. Only members of a request's project see it.
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ProjectAccess } from '../domain/projects.js';
import { notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { changeRequests } from '../store/schema.js';
import type { ChangeRequestResponse, ChangeRequestStatus } from '../wire/change-request.js';
import type { ProposalResponse } from '../wire/proposal.js';
import type { ChangeRequestDeps } from './deps.js';
import { expireDue } from './expiry.js';
import { findVisible } from './finding.js';
import { selectRequests } from './records.js';
import { decisionRefusal, factsOf, requestView, sentenceOf, staleReasonOf } from './views.js';

export interface RequestFilter {
  /** Only those waiting for the caller to approve: pending, asked by someone else, the caller holding their permission (stale ones marked so). */
  waitingForMe?: boolean;
  /** Only those the caller asked for. */
  askedByMe?: boolean;
  /** Only those of this project (slug). */
  project?: string;
  status?: ChangeRequestStatus;
  /** At most this many, newest first. */
  limit: number;
}

export async function viewRequest(deps: ChangeRequestDeps, operator: Operator, id: string): Promise<ChangeRequestResponse> {
  await expireDue(deps);
  const { stored, access } = await findVisible(deps, deps.db, operator, id);
  return requestView(stored, operator, access);
}

export async function listRequests(deps: ChangeRequestDeps, operator: Operator, filter: RequestFilter): Promise<ChangeRequestResponse[]> {
  await expireDue(deps);
  const projects = await visibleProjects(deps, operator, filter.project);
  if (projects.size === 0) return [];
  const conditions: SQL[] = [inArray(changeRequests.projectId, [...projects.values()].map((p) => p.id))];
  if (filter.askedByMe) conditions.push(eq(changeRequests.requesterId, operator.id));
  // The requester's own are among them where their environment lets them approve: judged below.
  if (filter.waitingForMe) conditions.push(eq(changeRequests.status, 'pending'));
  if (filter.status) conditions.push(eq(changeRequests.status, filter.status));
  const query = selectRequests(deps.db)
    .where(and(...conditions))
    .orderBy(desc(changeRequests.createdAt), desc(changeRequests.id));
  // Whether the caller may approve is judged here, not in the query: a page of those waiting for them is cut after it.
  const rows = filter.waitingForMe ? await query : await query.limit(filter.limit);
  // Waiting for the caller: those they may approve, and those they could were they not stale (shown so, and not counted).
  const mine = filter.waitingForMe ? rows.filter((row) => decisionRefusal(row, operator, projects.get(row.project) ?? null, 'approve') === null) : rows;
  return mine.slice(0, filter.limit).map((row) => requestView(row, operator, projects.get(row.project) ?? null));
}

/** The caller's projects by slug: the one named (NotFound when they may not see it), or every one. */
async function visibleProjects(deps: ChangeRequestDeps, operator: Operator, slug: string | undefined): Promise<Map<string, ProjectAccess>> {
  if (slug !== undefined) {
    const project = await deps.projects.find(operator, slug);
    if (!project) throw notFound(`no such project: ${slug}`);
    return new Map([[slug, project]]);
  }
  const found = await Promise.all((await deps.projects.visibleSlugs(operator)).map((one) => deps.projects.find(operator, one)));
  return new Map(found.filter((p): p is ProjectAccess => p !== null).map((p) => [p.slug, p]));
}

/** What the proposals waiting on these change requests show of them: id, status and its sentence. */
export async function proposalChangeRequests(db: Db, ids: readonly string[]): Promise<Map<string, NonNullable<ProposalResponse['change_request']>>> {
  if (ids.length === 0) return new Map();
  const rows = await selectRequests(db).where(inArray(changeRequests.id, [...ids]));
  return new Map(
    rows.map((row) => {
      const stale = staleReasonOf(row);
      return [row.request.id, { id: row.request.id, status: row.request.status, sentence: sentenceOf(factsOf(row)), stale: stale !== null, stale_reason: stale }];
    }),
  );
}
