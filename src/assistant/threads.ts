// Threads: opened on a project and environment, owned by the operator who
// opened them (anyone else gets 404), listed with messages and proposals.
import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import { findEnvironment } from '../domain/projects.js';
import { notFound, type AppError } from '../errors.js';
import type { Db } from '../store/db.js';
import { isoTime, outer } from '../store/json-views.js';
import { isUuid } from '../store/ids.js';
import type { Topic } from '../store/changes.js';
import { documents, messages, projects, proposals, threads, tokens } from '../store/schema.js';
import type { AgentBlocks } from '../turns/events.js';
import { threadChangeTopic } from '../turns/topics.js';
import { runningTurnView } from '../turns/turns.js';
import type { ToolCall } from '../wire/agent-work.js';
import type { ThreadMessage } from '../wire/message.js';
import { proposalChangeRequests } from '../change-requests/listing.js';
import type { ProposalResponse } from '../wire/proposal.js';
import type { ThreadResponse } from '../wire/thread.js';
import { proposalFingerprint } from './fingerprint.js';
import { movedSinceProposed } from './proposal-staleness.js';
import { staleWaiting, threadState } from './thread-state.js';

export type ThreadRecord = typeof threads.$inferSelect;

export interface OpenThread {
  project?: string | null;
  environment?: string | null;
  page?: string | null;
  /** A configured ACP agent, checked by the caller. */
  agent?: string | null;
}


/**
 * Opens a thread on the panel's scope; the environment defaults to the
 * project's first unprotected one. A project or environment that names
 * nothing is NotFound.
 */
export async function openThread(db: Db, directory: ProjectDirectory, operator: Operator, body: OpenThread): Promise<ThreadRecord> {
  let environment = body.environment ?? '';
  // Only a missing or null project means none: `""` names a project, one that does not exist.
  if (typeof body.project !== 'string') {
    // An environment is a project's: without one, no name names an environment (the spec's 404, "No such project").
    if (environment !== '') throw notFound(`no such project: the environment ${environment} belongs to a project; name it too, or name no environment`);
  } else {
    const project = await directory.open(operator, body.project);
    environment =
      typeof body.environment === 'string'
        ? findEnvironment(project, body.environment).name
        : ((project.environments.find((e) => !e.protected) ?? project.environments[0])?.name ?? '');
  }
  const [row] = await db
    .insert(threads)
    .values({ operatorId: operator.id, project: body.project ?? null, environment, page: body.page ?? '', agent: body.agent ?? null })
    .returning();
  if (!row) throw new Error('thread insert returned no row');
  return row;
}

/** The operator's own thread, or NotFound. */
export async function findThread(db: Db, operator: Operator, id: string): Promise<ThreadRecord> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(threads)
        .where(and(eq(threads.id, id), eq(threads.operatorId, operator.id)))
        .limit(1)
    : [];
  if (!row) throw noSuchThread(id);
  return row;
}

export function noSuchThread(id: string): AppError {
  return notFound(`no such thread: ${id}`);
}

export interface ThreadPage {
  /** Every thread when absent. */
  limit?: number;
  /** Only threads after this one, newest first: the id of the last thread of the page before. */
  before?: string;
}

/** The operator's threads, newest first: all of them, or the page asked for. */
export async function listThreads(db: Db, directory: ProjectDirectory, operator: Operator, page: ThreadPage): Promise<ThreadResponse[]> {
  const conditions = [eq(threads.operatorId, operator.id)];
  if (page.before !== undefined) {
    const cursor = await findThread(db, operator, page.before);
    // Compared in the database, which keeps the microseconds a Date would lose.
    conditions.push(
      sql`(${threads.updatedAt}, ${threads.createdAt}, ${threads.id}) < (select updated_at, created_at, id from ${threads} where id = ${cursor.id})`,
    );
  }
  const query = selectViews(db, { withTurn: true })
    .where(and(...conditions))
    .orderBy(desc(threads.updatedAt), desc(threads.createdAt), desc(threads.id));
  return describeThreads(db, directory, operator, page.limit === undefined ? await query : await query.limit(page.limit));
}

/**
 * The operator's own thread as the API shows it (or NotFound), read in one
 * statement. `justEnded`: the caller's turn of this thread has just ended, so
 * none runs (and none is looked up).
 */
export async function describeThread(
  db: Db,
  directory: ProjectDirectory,
  operator: Operator,
  id: string,
  { justEnded = false }: { justEnded?: boolean } = {},
): Promise<ThreadResponse> {
  const rows = isUuid(id)
    ? await selectViews(db, { withTurn: !justEnded })
        .where(and(eq(threads.id, id), eq(threads.operatorId, operator.id)))
        .limit(1)
    : [];
  const [view] = await describeThreads(db, directory, operator, rows);
  if (!view) throw noSuchThread(id);
  return view;
}

/** A message as its thread's view has it; an agent's answer carries its tool calls and plan in `acp`. */
interface MessageView extends Omit<ThreadMessage, 'tool_calls' | 'plan'> {
  acp: AgentBlocks['acp'] | null;
  tool_calls: ToolCall[] | null;
}

/** Threads with their messages, proposals and (`withTurn`) running turn, each thread one row. */
function selectViews(db: Db, { withTurn }: { withTurn: boolean }) {
  return db
    .select({
      row: getTableColumns(threads),
      messages: sql<MessageView[]>`(select coalesce(json_agg(json_build_object(
          'at', ${isoTime(messages.at)}, 'id', ${messages.id}, 'role', ${messages.role}, 'stop_reason', ${messages.stopReason},
          'text', ${messages.text}, 'acp', ${messages.blocks} -> 'acp', 'tool_calls', ${messages.toolCalls}) order by ${messages.id}), '[]')
        from ${messages} where ${messages.threadId} = ${outer(threads.id)})`,
      proposals: proposalsJson(outer(threads.id)),
      turn: withTurn ? runningTurnView(outer(threads.id)) : sql<null>`null`,
    })
    .from(threads)
    .$dynamic();
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['execute']>>[number];

async function describeThreads(db: Db, directory: ProjectDirectory, operator: Operator, rows: ViewRow[]): Promise<ThreadResponse[]> {
  if (rows.length === 0) return [];
  const requests = await changeRequestsOf(db, rows.flatMap((r) => r.proposals));
  const roles = new Map<string, string>();
  for (const slug of new Set(rows.map((r) => r.row.project).filter((p): p is string => p !== null))) {
    roles.set(slug, (await directory.find(operator, slug))?.role ?? 'none');
  }
  return rows.map(({ row, messages: stored, proposals: ownStored, turn }) => {
    const threadMessages = stored.map(messageView);
    const ownProposals = ownStored.map((p) => proposalView(p, requests));
    return {
      created_at: row.createdAt.toISOString(),
      environment: row.environment,
      id: row.id,
      agent: row.agent,
      agent_options: row.agentOptions,
      messages: threadMessages,
      page: row.page,
      project: row.project,
      proposals: ownProposals,
      role: row.project ? (roles.get(row.project) ?? 'none') : 'none',
      stale_waiting: staleWaiting(ownProposals),
      state: threadState(threadMessages, ownProposals),
      title: row.title,
      turn,
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

function messageView({ acp, tool_calls: toolCalls, ...message }: MessageView): ThreadMessage {
  if (acp) return { ...message, tool_calls: acp.tool_calls, plan: acp.plan };
  return toolCalls ? { ...message, tool_calls: toolCalls } : message;
}

/** A proposal's view as stored, with the id of the change request it waits on in place of that request's view. */
export type StoredProposalView = Omit<ProposalResponse, 'change_request' | 'stale' | 'stale_reason' | 'newer_revision' | 'result'> & {
  /** Null while it waits (pending, or requested). */
  result: ProposalResponse['result'] | null;
  change_request_id: string | null;
  basis: DocumentBasis | null;
  /** Why a waiting write other than an edit can no longer run as shown (proposal-staleness.ts), or null. */
  moved: string | null;
};

/** What a waiting write or deploy of a document was made on, and where that document stands now. */
interface DocumentBasis {
  path: string;
  /** The revision a write edits (`base_revision`) or a deploy is pinned to; null when it names none. */
  on: number | null;
  current: number | null;
}

/**
 * For a waiting write or deploy of a document: its path, the revision it was
 * made on, and the document's newest revision, read as the view is (so every
 * server and every reader sees the same, the moment the document moves).
 */
const documentBasis = sql`case when ${proposals.status} = 'pending' and ${proposals.tool} in ('write_document', 'deploy') then json_build_object(
  'path', ${proposals.input}->>'path',
  'on', case ${proposals.tool} when 'write_document' then ${proposals.input}->'base_revision' else ${proposals.input}->'revision' end,
  'current', (select d.current_revision from ${documents} d join ${projects} pj on pj.id = d.project_id
    where pj.slug = ${proposals.project} and d.path = ${proposals.input}->>'path')) end`;

/** A proposal's view, built in SQL (`proposals` in scope). */
const proposalViewJson = sql<StoredProposalView>`json_build_object(
  'change_request_id', ${proposals.changeRequestId}, 'decided_at', ${isoTime(proposals.decidedAt)}, 'environment', ${proposals.environment},
  'id', ${proposals.id}, 'message_id', ${proposals.messageId}, 'permission', ${proposals.permission}, 'project', ${proposals.project},
  'result', case when ${proposals.status} in ('pending', 'requested') then null else coalesce(${proposals.result}, '{}') end, 'rows', ${proposals.rows},
  'status', case when ${proposals.status} = 'requested' then 'accepted' else ${proposals.status} end,
  'requested', ${proposals.status} = 'requested', 'fingerprint', ${proposalFingerprint},
  'tag', case when ${proposals.tag} = 'read' then 'read' else 'write' end, 'title', ${proposals.title}, 'tool', ${proposals.tool},
  'basis', ${documentBasis}, 'moved', ${movedSinceProposed})`;

/** The thread's proposals in order, as a JSON array of their stored views: a subquery. */
export function proposalsJson(threadId: SQL | string): SQL<StoredProposalView[]> {
  return sql<StoredProposalView[]>`(select coalesce(json_agg(${proposalViewJson} order by ${proposals.messageId}, ${proposals.position}), '[]')
    from ${proposals} where ${proposals.threadId} = ${threadId})`;
}

/** Stored proposal views as the API shows them: each with the change request it waits on, if any. */
export async function proposalViews(db: Db, stored: readonly StoredProposalView[]): Promise<ProposalResponse[]> {
  const requests = await changeRequestsOf(db, stored);
  return stored.map((p) => proposalView(p, requests));
}

/** What the proposals waiting on change requests show of them; one more statement only when one does. */
function changeRequestsOf(db: Db, views: readonly StoredProposalView[]): ReturnType<typeof proposalChangeRequests> {
  return proposalChangeRequests(db, views.flatMap((p) => (p.change_request_id ? [p.change_request_id] : [])));
}

function proposalView(
  { change_request_id: requestId, basis, moved, result, ...view }: StoredProposalView,
  requests: Awaited<ReturnType<typeof proposalChangeRequests>>,
): ProposalResponse {
  const request = (requestId && requests.get(requestId)) || null;
  // Only a proposal that still waits on its request is stale with it; one decided since says how it ended.
  const stale = view.requested && request?.stale ? request.stale_reason : view.tool === 'write_document' ? editMoved(basis) : moved;
  // A pinned deploy still runs as shown; a newer revision is offered beside it, never put in its place.
  const newer = view.tool === 'deploy' && basis?.on != null && basis.current != null && basis.current > basis.on ? basis.current : null;
  // The spec's `result` is "present once decided": a proposal that waits has none.
  return { ...view, ...(result ? { result } : {}), change_request: request, stale: stale !== null, stale_reason: stale, newer_revision: newer };
}

/** Why a waiting edit can no longer run as shown: its document was saved again since it was made on its revision. */
function editMoved(basis: DocumentBasis | null): string | null {
  if (!basis || basis.on === null || basis.current === null || basis.current === basis.on) return null;
  return `${basis.path} was saved again since this was proposed: r${basis.current} is its newest, not the r${basis.on} this edits, so accepting it would be refused; ask for the edit again`;
}

/**
 * Deletes the thread in `tx`; its messages, proposals, parked values, shared context
 * and session credentials go with it, and every server forgets the credentials.
 */
export async function deleteThread(tx: Db, touch: (topic: Topic) => void, thread: ThreadRecord): Promise<void> {
  const credentials = await tx.select({ id: tokens.id }).from(tokens).where(eq(tokens.threadId, thread.id));
  await tx.delete(threads).where(eq(threads.id, thread.id));
  for (const { id } of credentials) touch(`token:${id}`);
  touch(`thread:${thread.id}`);
  // The server holding its agent's lease stops the process at once.
  if (thread.agent) touch(`agent:${thread.id}`);
  touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'deleted' }));
}

/**
 * Gives the thread the operator's title, announced to their tabs. The order
 * of the list stays the conversation's: `updated_at` does not move.
 */
export async function renameThread(tx: Db, touch: (topic: Topic) => void, thread: ThreadRecord, title: string): Promise<void> {
  const renamed = await tx.update(threads).set({ title }).where(eq(threads.id, thread.id)).returning({ id: threads.id });
  if (renamed.length === 0) throw notFound(`no such thread: ${thread.id}`);
  touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'updated' }));
}
