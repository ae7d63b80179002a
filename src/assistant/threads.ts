// Threads: opened on a project and environment, owned by the operator who
// opened them (anyone else gets 404), listed with messages and proposals.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import { ENVIRONMENT_NAME_PATTERN, findEnvironment } from '../domain/projects.js';
import { notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import type { Topic } from '../store/changes.js';
import { messages, proposals, threads, tokens } from '../store/schema.js';
import type { ProposalRow } from '../tools/types.js';
import type { AgentBlocks } from './events.js';
import { threadState, type ProposalView, type ThreadMessageView, type ThreadView } from './views.js';

export type ThreadRecord = typeof threads.$inferSelect;

export interface OpenThread {
  project?: string | null;
  environment?: string | null;
  page?: string | null;
  /** A configured ACP agent, checked by the caller. */
  agent?: string | null;
}

const ENVIRONMENT_NAME = new RegExp(ENVIRONMENT_NAME_PATTERN);

/**
 * Opens a thread on the panel's scope; the environment defaults to the
 * project's first unprotected one. A project or environment that names
 * nothing is NotFound.
 */
export async function openThread(db: Db, directory: ProjectDirectory, operator: Operator, body: OpenThread): Promise<ThreadRecord> {
  let environment = body.environment ?? '';
  // Only a missing or null project means none: `""` names a project, one that does not exist.
  if (typeof body.project !== 'string') {
    // No project to look the environment up in; a name no environment can have still names nothing.
    if (environment !== '' && !ENVIRONMENT_NAME.test(environment)) throw notFound(`no such environment: ${environment}`);
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
  if (!row) throw notFound(`no such thread: ${id}`);
  return row;
}

export interface ThreadPage {
  /** Every thread when absent. */
  limit?: number;
  /** Only threads after this one, newest first: the id of the last thread of the page before. */
  before?: string;
}

/** The operator's threads, newest first: all of them, or the page asked for. */
export async function listThreads(db: Db, directory: ProjectDirectory, operator: Operator, page: ThreadPage): Promise<ThreadView[]> {
  const conditions = [eq(threads.operatorId, operator.id)];
  if (page.before !== undefined) {
    const cursor = await findThread(db, operator, page.before);
    // Compared in the database, which keeps the microseconds a Date would lose.
    conditions.push(
      sql`(${threads.updatedAt}, ${threads.createdAt}, ${threads.id}) < (select updated_at, created_at, id from ${threads} where id = ${cursor.id})`,
    );
  }
  const query = db
    .select()
    .from(threads)
    .where(and(...conditions))
    .orderBy(desc(threads.updatedAt), desc(threads.createdAt), desc(threads.id));
  const rows = page.limit === undefined ? await query : await query.limit(page.limit);
  return describeThreads(db, directory, operator, rows);
}

export async function describeThread(db: Db, directory: ProjectDirectory, operator: Operator, row: ThreadRecord): Promise<ThreadView> {
  const [view] = await describeThreads(db, directory, operator, [row]);
  if (!view) throw new Error('a described thread went missing');
  return view;
}

/** Views of several threads in three queries, whatever their number. */
async function describeThreads(
  db: Db,
  directory: ProjectDirectory,
  operator: Operator,
  rows: ThreadRecord[],
): Promise<ThreadView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [messageRows, proposalRows] = await Promise.all([
    db
      .select({
        threadId: messages.threadId,
        id: messages.id,
        role: messages.role,
        text: messages.text,
        stopReason: messages.stopReason,
        at: messages.at,
        acp: sql<AgentBlocks['acp'] | null>`${messages.blocks} -> 'acp'`,
      })
      .from(messages)
      .where(inArray(messages.threadId, ids))
      .orderBy(asc(messages.id)),
    db.select().from(proposals).where(inArray(proposals.threadId, ids)).orderBy(asc(proposals.messageId), asc(proposals.position)),
  ]);
  const roles = new Map<string, string>();
  for (const slug of new Set(rows.map((r) => r.project).filter((p): p is string => p !== null))) {
    roles.set(slug, (await directory.find(operator, slug))?.role ?? 'none');
  }
  return rows.map((row) => {
    const threadMessages: ThreadMessageView[] = messageRows
      .filter((m) => m.threadId === row.id)
      .map((m) => ({
        at: m.at.toISOString(),
        id: m.id,
        role: m.role,
        stop_reason: m.stopReason,
        text: m.text,
        ...(m.acp ? { tool_calls: m.acp.tool_calls, plan: m.acp.plan } : {}),
      }));
    const threadProposals = proposalRows.filter((p) => p.threadId === row.id).map(proposalView);
    return {
      created_at: row.createdAt.toISOString(),
      environment: row.environment,
      id: row.id,
      agent: row.agent,
      messages: threadMessages,
      page: row.page,
      project: row.project,
      proposals: threadProposals,
      role: row.project ? (roles.get(row.project) ?? 'none') : 'none',
      state: threadState(threadMessages, threadProposals),
      title: row.title,
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

export function proposalView(p: typeof proposals.$inferSelect): ProposalView {
  return {
    decided_at: p.decidedAt?.toISOString() ?? null,
    environment: p.environment,
    id: p.id,
    message_id: p.messageId,
    permission: p.permission,
    project: p.project,
    result: (p.result as Record<string, unknown> | null) ?? {},
    rows: p.rows as ProposalRow[],
    status: p.status,
    tag: p.tag === 'read' ? 'read' : 'write',
    title: p.title,
    tool: p.tool,
  };
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
}
