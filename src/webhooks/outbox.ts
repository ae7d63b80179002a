// The outbox: a delivery is written in the transaction of the change it
// tells, so it is stored exactly when the change commits — never lost with a
// server that stops after, never sent for a change rolled back. It follows
// the change notices the transaction touched (change requests opened or
// decided, proposals made), so whatever moves a change request, today's code
// or tomorrow's, is told without a call of its own. What a topic names is
// read again in the transaction: a savepoint rolled back (a batch's failed
// step) touched it but left nothing to tell. Each event is stored once per
// hook (its key), however often it is touched.
import { and, eq, sql } from 'drizzle-orm';
import { changeRequestChangeOf } from '../change-requests/topics.js';
import { selectRequests } from '../change-requests/records.js';
import type { CommitHook, Topic } from '../store/changes.js';
import { queryRows, type Db } from '../store/db.js';
import { changeRequests, projects, webhookDeliveries, webhooks } from '../store/schema.js';
import type { WebhookEvent } from '../wire/webhook.js';
import type { ChangeRequestStatus } from '../wire/change-request-status.js';
import { proposalPayload, requestEvent, requestPayload, type StoredPayload, type WaitingProposal } from './payloads.js';

export const enqueueTouched: CommitHook = async (tx, touched) => {
  for (const topic of touched) {
    const request = changeRequestChangeOf(topic);
    if (request) await enqueueRequest(tx, request.project, request.id, request.status);
    const thread = proposingThread(topic);
    if (thread) await enqueueProposals(tx, thread);
  }
};

/** The thread of `threads:<operator>:<thread>:proposal`: an answer there made proposals. */
function proposingThread(topic: Topic): string | null {
  const [kind, , thread, what] = topic.split(':');
  return kind === 'threads' && what === 'proposal' && thread ? thread : null;
}

/** The active hooks of a project (by slug), with the events each follows. */
async function hooksOf(tx: Db, project: string): Promise<{ id: string; events: WebhookEvent[] }[]> {
  return tx
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .innerJoin(projects, eq(projects.id, webhooks.projectId))
    .where(and(eq(projects.slug, project), eq(webhooks.active, true)));
}

async function store(tx: Db, hooks: readonly string[], key: string, payload: StoredPayload): Promise<void> {
  if (hooks.length === 0) return;
  await tx
    .insert(webhookDeliveries)
    .values(hooks.map((webhookId) => ({ webhookId, event: payload.event, key, payload })))
    .onConflictDoNothing();
}

async function enqueueRequest(tx: Db, project: string, id: string, status: ChangeRequestStatus): Promise<void> {
  const hooks = await hooksOf(tx, project);
  if (hooks.length === 0) return;
  const [stored] = await selectRequests(tx).where(eq(changeRequests.id, id));
  // Rolled back with its savepoint, or moved on within this transaction: the later status is told by its own topic.
  if (!stored || stored.request.status !== status) return;
  const { event, key } = requestEvent(stored);
  const following = hooks.filter((h) => h.events.includes(event)).map((h) => h.id);
  await store(tx, following, key, requestPayload(stored, event));
}

/** The thread's proposals waiting for its operator, in projects with a hook that follows them. */
async function enqueueProposals(tx: Db, thread: string): Promise<void> {
  const waiting = await queryRows<WaitingProposal & { hooks: string[] }>(
    tx,
    sql`
    select p.id, p.title, p.tool, p.project, p.environment, p.thread_id as thread, o.name as operator,
      (select coalesce(json_agg(w.id), '[]') from webhooks w
        where w.project_id = pr.id and w.active and 'proposal.waiting' = any(w.events)) as hooks
    from proposals p
    join threads t on t.id = p.thread_id
    join operators o on o.id = t.operator_id
    join projects pr on pr.slug = p.project
    where p.thread_id = ${thread} and p.status = 'pending' and p.change_request_id is null`,
  );
  for (const { hooks, ...proposal } of waiting) await store(tx, hooks, `proposal:${proposal.id}:waiting`, proposalPayload(proposal));
}

