// Turning a prepared write into a pending proposal, and storing proposals on
// the answer that made them — for the built-in assistant's turns and for an
// agent attached to the conversation alike.
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Changes } from '../store/changes.js';
import { queryRows, type Db } from '../store/db.js';
import { messages, proposals, threads, type MessageBlocks } from '../store/schema.js';
import type { ProposedWrite } from '../tools/executor.js';
import type { ToolCall } from '../wire/agent-work.js';
import type { TurnEvent } from '../wire/turn-event.js';
import type { PendingProposal } from '../turns/proposal.js';
import type { RunningTurn } from '../turns/running-turn.js';
import { threadChangeTopic } from '../turns/topics.js';
import type { Turns } from '../turns/turns.js';
import type { ModelUsage } from './providers/types.js';
import { redactCredentials, redactCredentialsIn } from './redaction.js';
import type { ThreadRecord } from './threads.js';
import { storeAgentUsage, storeUsage, type AgentUsageRow } from './usage.js';


/** What the model (or agent) is told in place of a result. */
export function proposedResult(id: string) {
  return { proposed: true, proposal: id, status: 'pending', waits_for: 'the operator to accept or reject it' };
}

/** A pending proposal for a write the executor handed back; its rows say so when it acts outside the thread's scope. */
export function pendingProposal(
  prepared: ProposedWrite,
  thread: ThreadRecord,
  ids: { id: string; toolUseId: string } | null,
): PendingProposal {
  const { tool, input, project } = prepared;
  const environment = prepared.environment?.name ?? thread.environment;
  const outside = outsideThread(thread, project?.slug ?? null, prepared.environment?.name ?? null);
  const rows = outside ? [...prepared.rows, { k: 'note', v: `acts on ${outside}` }] : prepared.rows;
  return {
    ...ids,
    tool: tool.name,
    input,
    project: project?.slug ?? null,
    environment,
    permission: tool.permission ?? '',
    title: proposalTitle(tool.name, input, environment),
    rows,
  };
}

/** Where a call acts when that is outside the thread's scope (`production, outside this thread's environment staging`); else null. */
export function outsideThread(thread: ThreadRecord, project: string | null, environment: string | null): string | null {
  if (project && thread.project && project !== thread.project) return `project ${project}, outside this thread's project ${thread.project}`;
  if (environment && thread.environment && environment !== thread.environment) return `${environment}, outside this thread's environment ${thread.environment}`;
  return null;
}

function proposalTitle(tool: string, input: Record<string, unknown>, environment: string): string {
  const object = [input.path, input.name, input.operator].find((v): v is string => typeof v === 'string');
  const environmentTools = ['deploy', 'rollback', 'set_secret', 'delete_secret'];
  const where = input.environment !== undefined || environmentTools.includes(tool) ? ` in ${environment}` : '';
  return `${tool.replaceAll('_', ' ')}${object ? ` ${object}` : ''}${where}`;
}

/** What marks the answer an attached agent's proposals outside a turn are stored on. */
const ATTACHED: MessageBlocks = { attached: true };
const attachedText = (titles: string[]) => `An agent in this conversation proposes: ${titles.join('; ')}.`;

/**
 * A write an agent attached to the conversation called outside a turn: it
 * joins the newest answer when that holds the same agent's proposals still
 * waiting, so they wait (and are accepted) together — a new answer would
 * replace them — and lands on an answer of its own otherwise. Answers its id.
 */
export async function storeAttachedProposal(store: AnswerStore, thread: ThreadRecord, proposal: PendingProposal): Promise<string> {
  const joined = await store.changes.transaction(store.db, async (tx, touch) => {
    const [newest] = await tx
      .select({ id: messages.id, blocks: messages.blocks })
      .from(messages)
      .where(eq(messages.threadId, thread.id))
      .orderBy(desc(messages.id))
      .limit(1)
      .for('update');
    if (!newest || !newest.blocks || !('attached' in newest.blocks)) return null;
    const waiting = await tx
      .select({ title: proposals.title, position: proposals.position, status: proposals.status })
      .from(proposals)
      .where(eq(proposals.messageId, newest.id))
      .orderBy(asc(proposals.position));
    if (!waiting.some((p) => p.status === 'pending')) return null;
    const [row] = await tx
      .insert(proposals)
      .values({ ...proposalRow(thread.id, newest.id, proposal, (waiting.at(-1)?.position ?? -1) + 1) })
      .returning({ id: proposals.id });
    await tx
      .update(messages)
      .set({ text: redactCredentials(attachedText([...waiting.map((p) => p.title), proposal.title])) })
      .where(eq(messages.id, newest.id));
    await tx.update(threads).set({ updatedAt: new Date() }).where(eq(threads.id, thread.id));
    touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'proposal' }));
    return row?.id ?? null;
  });
  if (joined) return joined;
  const [id] = await storeAnswer(store, thread, { text: attachedText([proposal.title]), blocks: ATTACHED, stopReason: null }, [proposal], null);
  if (!id) throw new Error('proposal insert returned no row');
  return id;
}

/** A proposal's own columns, as both ways of storing one write them. */
function proposalFields(p: PendingProposal) {
  return { tool: p.tool, input: p.input, project: p.project, environment: p.environment, permission: p.permission, title: p.title, rows: p.rows };
}

function proposalRow(threadId: string, messageId: number, p: PendingProposal, position: number) {
  return {
    ...(p.id ? { id: p.id } : {}),
    ...proposalFields(p),
    threadId,
    messageId,
    position,
    toolUseId: p.toolUseId ?? `agent-${messageId}-${position}`,
    tag: 'write' as const,
  };
}

/** What storing an answer needs: the store, its notices, and the turns (to end the one that answered). */
export interface AnswerStore {
  db: Db;
  changes: Changes;
  turns: Turns;
}

export interface StoredAnswer {
  text: string;
  blocks: MessageBlocks | null;
  /** A built-in answer's tool calls as the thread shows them. */
  toolCalls?: readonly ToolCall[];
  stopReason: string | null;
  usage?: readonly ModelUsage[];
  /** What an ACP agent reported of the turn. */
  agentUsage?: AgentUsageRow | null;
}

/**
 * Stores an answer with its proposals and what its model calls cost in one
 * transaction; a turn's own answer (`ending`) also ends that turn there, its
 * last events with it — an attached agent's proposal leaves a running turn
 * alone. Answers the stored proposals' ids, in order.
 */
export async function storeAnswer(
  store: AnswerStore,
  thread: ThreadRecord,
  answer: StoredAnswer,
  pending: readonly PendingProposal[],
  turn: RunningTurn | null,
): Promise<string[]> {
  await turn?.settle();
  const ids = await store.changes.transaction(store.db, async (tx, touch) => {
    const ids = await storeAnswerIn(tx, thread.id, answer, pending);
    touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: pending.length > 0 ? 'proposal' : 'message' }));
    if (turn) await store.turns.end(tx, touch, turn, thread.operatorId, { type: 'ended', stop_reason: answer.stopReason });
    return ids;
  });
  if (turn) store.turns.ended(turn);
  return ids;
}

/** Ends a turn that stores no answer (it failed), with `also` in the same transaction. */
export async function endTurn(
  store: AnswerStore,
  thread: ThreadRecord,
  turn: RunningTurn,
  last: Extract<TurnEvent, { type: 'ended' }>,
  also: (tx: Db) => Promise<void>,
): Promise<void> {
  await turn.settle();
  await store.changes.transaction(store.db, async (tx, touch) => {
    await also(tx);
    await store.turns.end(tx, touch, turn, thread.operatorId, last);
  });
  store.turns.ended(turn);
}

/**
 * Stores an answer (credentials in its text and blocks redacted) with its
 * proposals and what it cost, inside `tx`; older answers' waiting proposals
 * fail, replaced — but those accepted already, which wait on a change
 * request. Answers the proposals' ids.
 */
export async function storeAnswerIn(tx: Db, threadId: string, answer: StoredAnswer, pending: readonly PendingProposal[]): Promise<string[]> {
  const proposed = pending.map((p, position) => ({ ...proposalFields(p), id: p.id ?? null, tool_use_id: p.toolUseId ?? null, position }));
  // One statement: the answer, its proposals, the older answers' waiting proposals failed, the thread's time.
  const [stored] = await queryRows<{ id: number; proposals: string[] }>(
    tx,
    sql`
    with answer as (
      insert into ${messages} (thread_id, role, text, blocks, tool_calls, stop_reason)
      values (${threadId}, 'assistant', ${redactCredentials(answer.text)}, ${answer.blocks === null ? null : JSON.stringify(redactCredentialsIn(answer.blocks))}::jsonb,
        ${answer.toolCalls?.length ? JSON.stringify(answer.toolCalls) : null}::jsonb, ${answer.stopReason})
      returning id
    ), proposed as (
      insert into ${proposals} (id, thread_id, message_id, position, tool_use_id, tool, input, project, environment, permission, tag, title, rows)
      select coalesce(p.id, gen_random_uuid()), ${threadId}, answer.id, p.position, coalesce(p.tool_use_id, 'agent-' || answer.id || '-' || p.position),
        p.tool, p.input, p.project, p.environment, p.permission, 'write', p.title, p.rows
      from answer, jsonb_to_recordset(${JSON.stringify(proposed)}::jsonb)
        as p(id uuid, position int, tool_use_id text, tool text, input jsonb, project text, environment text, permission text, title text, rows jsonb)
      returning id, position
    ), replaced as (
      update ${proposals} set status = 'failed', result = ${JSON.stringify({ error: REPLACED })}::jsonb, decided_at = now()
      where thread_id = ${threadId} and status = 'pending' and change_request_id is null and message_id < (select id from answer)
    ), touched as (
      update ${threads} set updated_at = now() where id = ${threadId}
    )
    select answer.id, coalesce((select json_agg(id order by position) from proposed), '[]') as proposals from answer`,
  );
  if (!stored) throw new Error('answer insert returned no row');
  await storeUsage(tx, threadId, stored.id, answer.usage ?? []);
  if (answer.agentUsage) await storeAgentUsage(tx, stored.id, answer.agentUsage);
  return stored.proposals;
}

export const NO_LONGER_EXECUTABLE = 'this proposal is no longer executable';
export const REPLACED = `${NO_LONGER_EXECUTABLE}: a newer answer replaced it`;
