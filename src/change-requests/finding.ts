// Finding a change request as a caller may see it: a member of its project
// sees it (anyone else gets the 404 of an unknown id), and one already
// decided, or past its time, is a conflict for whoever would decide it.
import type { Operator } from '../access/operators.js';
import type { ProjectAccess } from '../domain/projects.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import type { ChangeRequestDeps } from './deps.js';
import { findRequest, type StoredRequest } from './records.js';
import { factsOf, sentenceOf } from './views.js';

export interface Visible {
  stored: StoredRequest;
  /** The caller's view of the request's project. */
  access: ProjectAccess;
}

/** The request and the caller's access to its project, or NotFound. */
export async function findVisible(deps: Pick<ChangeRequestDeps, 'projects'>, db: Db, operator: Operator, id: string, lock = false): Promise<Visible> {
  const stored = await findRequest(db, id, lock);
  // Inside a transaction, the project is read through it.
  const access = stored && (lock ? await deps.projects.open(operator, stored.project, { tx: db, fresh: false }).catch(nothingIfNotFound) : await deps.projects.find(operator, stored.project));
  if (!stored || !access) throw notFound(`no such change request: ${id}; GET /api/v1/change-requests lists those you may see`);
  return { stored, access };
}

/** A project the operator may not see is none; any other failure is what it is. */
export function nothingIfNotFound(error: unknown): null {
  if (error instanceof AppError && error.kind === 'not_found') return null;
  throw error;
}

/** A conflict when the request can no longer be decided: decided already, or expired (the sweep records that). */
export function assertUndecided(stored: StoredRequest): void {
  if (stored.request.status !== 'pending') throw conflict(`this change request was already decided: ${sentenceOf(factsOf(stored))}`);
  if (stored.expired) throw conflict(`this change request expired at ${stored.request.expiresAt.toISOString()}; nobody decided it in time, so ask again`);
}
