// What a delivery says, stored with it: everything but the console link,
// which the sender adds from its public URL (a sweep at start runs before the
// server knows where it listens). No input values: a change's secret ones
// never leave, and its summary says enough to find it.
import { counted } from '../change-requests/approvals.js';
import { factsOf, sentenceOf } from '../change-requests/views.js';
import type { StoredRequest } from '../change-requests/records.js';
import type { ChangeRequestStatus } from '../wire/change-request-status.js';
import type { WebhookEvent } from '../wire/webhook.js';

export interface StoredPayload {
  event: WebhookEvent;
  project: string;
  environment: string;
  /** One sentence for people; the sender appends the link. */
  summary: string;
  /** The console page it links to, from the console's root. */
  path: string;
  change_request?: Record<string, unknown>;
  proposal?: Record<string, unknown>;
}

/** The body as sent: Slack-compatible `text` (the sentence with its link) first. */
export function bodyOf(payload: StoredPayload, deliveryId: string, consoleUrl: string): string {
  const { summary, path, ...rest } = payload;
  const url = `${consoleUrl}${path}`;
  return JSON.stringify({ text: `${slackEscaped(summary)} ${url}`, ...rest, url, delivery: deliveryId });
}

/** What people typed (a reason, a comment) stays text in Slack: `<!channel>` must not ping a channel, nor `<url|x>` make a link. */
function slackEscaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The event a change request's status tells; a withdrawal is a decline, a failed run an approval. */
const REQUEST_EVENTS: Record<ChangeRequestStatus, WebhookEvent> = {
  pending: 'change_request.opened',
  approved: 'change_request.approved',
  failed: 'change_request.approved',
  declined: 'change_request.declined',
  withdrawn: 'change_request.declined',
  stale: 'change_request.stale',
  expired: 'change_request.expired',
};

/**
 * What the request, as it stands, tells, and the key that tells it once per
 * hook: a pending one marked stale is `.stale` (the same key as a stale one
 * found when approved), a pending one with approvals in is
 * `.partially_approved` once per count, else its status's event.
 */
export function requestEvent(stored: StoredRequest): { event: WebhookEvent; key: string } {
  const { request } = stored;
  const given = counted(stored).length;
  const event: WebhookEvent =
    request.status !== 'pending' ? REQUEST_EVENTS[request.status]
    : request.staleReason ? 'change_request.stale'
    : given > 0 ? 'change_request.partially_approved'
    : 'change_request.opened';
  const key = `change_request:${request.id}:${event}${event === 'change_request.partially_approved' ? `:${given}` : ''}`;
  return { event, key };
}

const REASON_CHARS = 300;

export function requestPayload(stored: StoredRequest, event: WebhookEvent): StoredPayload {
  const { request, project, environment, requestedBy, decidedBy } = stored;
  const reason = request.reason ? ` Reason: "${request.reason.slice(0, REASON_CHARS)}${request.reason.length > REASON_CHARS ? '…' : ''}".` : '';
  const what = `${requestedBy}'s change request (${request.tool} on ${environment} of ${project})`;
  return {
    event,
    project,
    environment,
    summary: `${what}: ${sentenceOf(factsOf(stored))}.${event === 'change_request.opened' ? reason : ''}`,
    path: `/projects/${encodeURIComponent(project)}/change-requests/${request.id}`,
    change_request: {
      id: request.id,
      status: request.status,
      tool: request.tool,
      requested_by: requestedBy,
      reason: request.reason,
      decided_by: decidedBy,
      comment: request.comment,
      approvals_required: stored.approvalsRequired,
      approved_by: counted(stored).map((a) => a.by),
      stale_reason: request.staleReason,
      created_at: request.createdAt.toISOString(),
      expires_at: request.expiresAt.toISOString(),
    },
  };
}

export interface WaitingProposal {
  id: string;
  title: string;
  tool: string;
  project: string;
  environment: string;
  thread: string;
  operator: string;
}

export function proposalPayload(p: WaitingProposal): StoredPayload {
  return {
    event: 'proposal.waiting',
    project: p.project,
    environment: p.environment,
    summary: `In ${p.project}, the assistant proposes to ${p.title}; it waits for ${p.operator} to accept or reject it.`,
    path: `/projects/${encodeURIComponent(p.project)}/environments/${encodeURIComponent(p.environment)}`,
    proposal: { id: p.id, title: p.title, tool: p.tool, thread: p.thread, operator: p.operator },
  };
}
