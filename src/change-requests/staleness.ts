// Stale before anyone clicks (DESIGN.md §14): whenever the store's change
// notices say a project's documents, an environment's deploys or secrets, or
// a project's shape moved — on every server, since every server hears them —
// the pending requests there are read again, and one whose change moved since
// it was asked gets its reason (`stale_reason`) at once, once (a conditional
// update), and its notice, so every list, card and count follows. It stays
// pending until someone declines it or it expires; approving it is refused.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { enabledOperator } from '../access/operators.js';
import { findEnvironment } from '../domain/projects.js';
import type { Topic } from '../store/changes.js';
import { changeRequests, environments, projects } from '../store/schema.js';
import { threadChangeTopic } from '../turns/topics.js';
import type { ChangeRequestDeps } from './deps.js';
import { nothingIfNotFound } from './finding.js';
import { unsealedInput } from './opening.js';
import { selectRequests, type StoredRequest } from './records.js';
import { dismissApprovals } from './approvals.js';
import { changeRequestTopic } from './topics.js';
import { movedSince } from './what-changes.js';

/** Which pending requests a notice may have made stale; null when it says nothing of them. */
function affected(topic: Topic) {
  if (topic === '*') return sql`true`;
  const [kind, key] = [topic.slice(0, topic.indexOf(':')), topic.slice(topic.indexOf(':') + 1)];
  if (kind === 'documents') return eq(projects.slug, key);
  if (kind === 'environment') return eq(environments.id, key);
  if (kind === 'project') return eq(projects.id, key);
  return null;
}

/** Marks stale what the notices moved, one check at a time (notices that arrive meanwhile join the next); answers how to stop. */
export function markStaleOnNotices(deps: ChangeRequestDeps, log: (error: unknown) => void): () => void {
  let queued: Topic[] = [];
  let running: Promise<void> | null = null;
  const drain = async () => {
    while (queued.length > 0) {
      const topics = queued;
      queued = [];
      await markStale(deps, topics).catch(log);
    }
    running = null;
  };
  return deps.changes.subscribe((topic) => {
    if (!affected(topic)) return;
    queued.push(topic);
    running ??= drain();
  });
}

/** Reads again the pending requests not yet stale where `topics` point, and marks those whose change moved. */
export async function markStale(deps: ChangeRequestDeps, topics: readonly Topic[]): Promise<void> {
  const where = topics.flatMap((t) => affected(t) ?? []);
  if (where.length === 0) return;
  const pending = await selectRequests(deps.db).where(
    and(eq(changeRequests.status, 'pending'), isNull(changeRequests.staleReason), sql`(${sql.join(where, sql` or `)})`),
  );
  for (const stored of pending) {
    const why = await whyStale(deps, stored);
    if (why) await recordStale(deps, stored, why);
  }
}

/** Why the request can no longer run as asked, or null (also when its requester may not run it at all: approving says so). */
async function whyStale(deps: ChangeRequestDeps, { request, project, environment }: StoredRequest): Promise<string | null> {
  const requester = await enabledOperator(deps.db, request.requesterId);
  const access = requester && (await deps.projects.find(requester, project).catch(nothingIfNotFound));
  if (!access) return null;
  const input = unsealedInput(deps, request.input, request.sealed);
  // Read in a transaction of its own: reading a protection change takes its environment's lock.
  return deps.db.transaction((tx) =>
    movedSince(tx, { tool: request.tool, input, project: access, environment: findEnvironment(access, environment) }, request.change),
  );
}

async function recordStale(deps: ChangeRequestDeps, { request, project }: StoredRequest, why: string): Promise<void> {
  await deps.changes.transaction(deps.db, async (tx, touch) => {
    const marked = await tx
      .update(changeRequests)
      .set({ staleReason: why })
      .where(and(eq(changeRequests.id, request.id), eq(changeRequests.status, 'pending'), isNull(changeRequests.staleReason)))
      .returning({ id: changeRequests.id });
    if (marked.length === 0) return;
    // What they approved is not what would run now.
    await dismissApprovals(tx, request.id, why);
    touch(changeRequestTopic({ project, id: request.id, status: 'pending' }));
    if (request.threadId) touch(threadChangeTopic(request.requesterId, { thread: request.threadId, what: 'decision' }));
  });
}
