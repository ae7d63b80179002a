// A change request as a caller reads it: its status in a sentence, and
// whether the caller may approve or decline it — the one rule for who may
// decide, which deciding applies again.
import { can, inWords, PERMISSIONS, refusal, type Permission } from '../access/can.js';
import type { Operator } from '../access/operators.js';
import type { ProjectAccess } from '../domain/projects.js';
import type { ChangeRequestResponse, ChangeRequestStatus } from '../wire/change-request.js';
import { approvalsView, counted, hasApproved } from './approvals.js';
import { requestFingerprint } from './fingerprint.js';
import type { StoredRequest } from './records.js';

/** What the sentence of a change request says. */
export interface RequestFacts {
  status: ChangeRequestStatus;
  tool: string;
  project: string;
  environment: string;
  permission: string;
  decidedBy: string | null;
  comment: string | null;
  result: unknown;
  expiresAt: Date;
  /** Why a pending request can no longer run as asked; null while it can. */
  staleReason: string | null;
  /** Its environment's rule: how many people's word it needs, the requester's ask the first. */
  approvalsRequired: number;
  /** Who approved it so far (approvals that count). */
  approvedBy: readonly string[];
}

export function sentenceOf(facts: RequestFacts): string {
  const { tool, decidedBy, comment, expiresAt } = facts;
  const said = comment ? ` ("${comment}")` : '';
  switch (facts.status) {
    case 'pending':
      if (facts.staleReason) return `stale, so ${tool} will not run: ${facts.staleReason}; decline it, or ask again`;
      return waitingSentence(facts);
    case 'approved':
      return `approved by ${decidedBy ?? 'an operator'}${said}; ${tool} ran`;
    case 'failed':
      return `approved by ${decidedBy ?? 'an operator'}, but ${tool} failed: ${errorOf(facts.result)}`;
    case 'declined':
      return `declined by ${decidedBy ?? 'an operator'}${said}; ${tool} did not run`;
    case 'withdrawn':
      return `withdrawn by ${decidedBy ?? 'its requester'}${said}; ${tool} did not run`;
    case 'expired':
      return `expired at ${expiresAt.toISOString()}: nobody approved or declined it in time, so ${tool} did not run`;
    case 'stale':
      return `stale, so ${tool} never ran: ${errorOf(facts.result)}`;
  }
}

/** Who a pending request waits for: how many approvals are still to come, and who gave those in. */
function waitingSentence({ tool, project, environment, permission, approvalsRequired, approvedBy }: RequestFacts): string {
  const left = Math.max(1, approvalsRequired - 1 - approvedBy.length);
  const who = left === 1 ? `another operator who may ${inWords(permission)} there to approve it` : `${left} more operators who may ${inWords(permission)} there to approve it`;
  const so = approvedBy.length === 0 ? '' : ` (approved so far by ${approvedBy.join(', ')})`;
  return `${environment} of ${project} requires ${approvalsRequired} approvals, so ${tool} waits for ${who}${so}`;
}

function errorOf(result: unknown): string {
  const error = (result as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : 'no reason was recorded';
}

export function factsOf(stored: StoredRequest): RequestFacts {
  const { request, project, environment, decidedBy, approvalsRequired } = stored;
  const { status, tool, permission, comment, result, expiresAt, staleReason } = request;
  const approvedBy = counted(stored).map((a) => a.by);
  return { status, tool, project, environment, permission, decidedBy, comment, result, expiresAt, staleReason, approvalsRequired, approvedBy };
}

function permissionOf(text: string): Permission {
  const found = PERMISSIONS.find((p) => p === text);
  if (!found) throw new Error(`a change request holds an unknown permission: ${text}`);
  return found;
}

/**
 * Why `operator` may not approve (or decline) the request now — they asked for
 * it (where the environment does not let a requester approve), they approved
 * it already, or they lack its permission in its environment, as `access`
 * says — or null. The requester may decline it: that withdraws it.
 */
export function decisionRefusal(stored: StoredRequest, operator: Operator, access: ProjectAccess | null, decision: 'approve' | 'decline'): string | null {
  const { request, project, environment } = stored;
  const requester = request.requesterId === operator.id;
  if (requester && decision === 'decline') return null;
  if (requester && !stored.requesterMayApprove) {
    return `you asked for this change; another operator who may ${inWords(request.permission)} on ${environment} of ${project} approves it (declining it withdraws it)`;
  }
  if (decision === 'approve' && hasApproved(stored, operator)) {
    return `you approved this change already; ${sentenceOf(factsOf(stored))}`;
  }
  const permission = permissionOf(request.permission);
  const target = access?.environments.find((e) => e.name === environment) ?? null;
  if (!access || !target || !can(access.role, permission, target)) {
    return `to ${decision} it ${refusal(access?.role ?? 'viewer', permission, project, { name: environment })}`;
  }
  return null;
}

/** Why the request can no longer run as asked — marked while pending, or found when approved — or null. */
export function staleReasonOf({ request }: StoredRequest): string | null {
  if (request.staleReason) return request.staleReason;
  return request.status === 'stale' ? errorOf(request.result) : null;
}

/** The request as `operator` reads it, with `access` their view of its project. */
export function requestView(stored: StoredRequest, operator: Operator, access: ProjectAccess | null): ChangeRequestResponse {
  const { request, project, environment, requestedBy, decidedBy } = stored;
  const pending = request.status === 'pending';
  const stale = staleReasonOf(stored);
  const refused = !pending ? null : request.staleReason ? `this change request is stale, so it will not run: ${request.staleReason}` : decisionRefusal(stored, operator, access, 'approve');
  return {
    id: request.id,
    fingerprint: requestFingerprint(stored),
    project,
    environment,
    tool: request.tool,
    input: request.input,
    rows: request.rows,
    permission: request.permission,
    requested_by: requestedBy,
    via: request.via,
    reason: request.reason,
    thread: request.threadId,
    proposal: request.proposalId,
    change: request.change,
    verdict: request.verdict,
    status: request.status,
    stale: stale !== null,
    stale_reason: stale,
    sentence: sentenceOf(factsOf(stored)),
    approvals_required: stored.approvalsRequired,
    approvals: approvalsView(stored),
    decided_by: decidedBy,
    comment: request.comment,
    result: request.result,
    created_at: request.createdAt.toISOString(),
    expires_at: request.expiresAt.toISOString(),
    decided_at: request.decidedAt?.toISOString() ?? null,
    can_approve: pending && refused === null,
    can_decline: pending && decisionRefusal(stored, operator, access, 'decline') === null,
    refusal: refused,
  };
}
