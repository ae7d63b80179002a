// Turning a prepared write into a pending proposal, and storing proposals on
// the answer that made them — for the built-in assistant's turns and for an
// agent attached to the conversation alike.
import { and, asc, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { messages, proposals, threads } from '../store/schema.js';
import type { ProposedWrite } from '../tools/executor.js';
import type { ProposalRow } from '../tools/types.js';
import type { ModelUsage } from './providers/types.js';
import { redactCredentials, redactCredentialsIn } from './redaction.js';
import type { ThreadRecord } from './threads.js';
import { storeUsage } from './usage.js';

export interface PendingProposal {
  /** Made here when the model must be told it before the answer is stored; else the store makes it. */
  id?: string;
  /** The model's tool-use id; an agent's proposal, which has none, gets one made of the answer's id. */
  toolUseId?: string;
  tool: string;
  input: Record<string, unknown>;
  project: string | null;
  environment: string;
  permission: string;
  title: string;
  rows: ProposalRow[];
}

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
const ATTACHED = { attached: true };
const attachedText = (titles: string[]) => `An agent in this conversation proposes: ${titles.join('; ')}.`;

/**
 * A write an agent attached to the conversation called outside a turn: it
 * joins the newest answer when that holds the same agent's proposals still
 * waiting, so they wait (and are accepted) together — a new answer would
 * replace them — and lands on an answer of its own otherwise. Answers its id.
 */
export async function storeAttachedProposal(db: Db, thread: ThreadRecord, proposal: PendingProposal): Promise<string> {
  const joined = await db.transaction(async (tx) => {
    const [newest] = await tx
      .select({ id: messages.id, blocks: messages.blocks })
      .from(messages)
      .where(eq(messages.threadId, thread.id))
      .orderBy(desc(messages.id))
      .limit(1)
      .for('update');
    if (!newest || (newest.blocks as { attached?: unknown } | null)?.attached !== true) return null;
    const waiting = await tx
      .select({ title: proposals.title, position: proposals.position, status: proposals.status })
      .from(proposals)
      .where(eq(proposals.messageId, newest.id))
      .orderBy(asc(proposals.position));
    if (!waiting.some((p) => p.status === 'pending')) return null;
    const [row] = await tx
      .insert(proposals)
      .values({ ...proposalRow(thread, newest.id, proposal, (waiting.at(-1)?.position ?? -1) + 1) })
      .returning({ id: proposals.id });
    await tx
      .update(messages)
      .set({ text: redactCredentials(attachedText([...waiting.map((p) => p.title), proposal.title])) })
      .where(eq(messages.id, newest.id));
    await tx.update(threads).set({ updatedAt: new Date() }).where(eq(threads.id, thread.id));
    return row?.id ?? null;
  });
  if (joined) return joined;
  const [id] = await storeAnswer(db, thread, { text: attachedText([proposal.title]), blocks: ATTACHED, stopReason: null }, [proposal], { endsTurn: false });
  if (!id) throw new Error('proposal insert returned no row');
  return id;
}

function proposalRow(thread: ThreadRecord, messageId: number, p: PendingProposal, position: number) {
  return {
    ...(p.id ? { id: p.id } : {}),
    threadId: thread.id,
    messageId,
    position,
    toolUseId: p.toolUseId ?? `agent-${messageId}-${position}`,
    tool: p.tool,
    input: p.input,
    project: p.project,
    environment: p.environment,
    permission: p.permission,
    tag: 'write' as const,
    title: p.title,
    rows: p.rows,
  };
}

/**
 * Stores an answer (credentials in its text and blocks redacted) with its
 * proposals and what its model calls cost in one transaction; `endsTurn` (a
 * turn's own answer) also ends the turn that made it — an agent's proposal
 * leaves a running turn's claim alone. Answers the stored proposals' ids, in order.
 */
export async function storeAnswer(
  db: Db,
  thread: ThreadRecord,
  answer: { text: string; blocks: unknown; stopReason: string | null; usage?: readonly ModelUsage[] },
  pending: PendingProposal[],
  { endsTurn }: { endsTurn: boolean },
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(messages)
      .values({
        threadId: thread.id,
        role: 'assistant',
        text: redactCredentials(answer.text),
        blocks: redactCredentialsIn(answer.blocks),
        stopReason: answer.stopReason,
      })
      .returning({ id: messages.id });
    if (!stored) throw new Error('answer insert returned no row');
    await failReplacedProposals(tx, thread.id, stored.id);
    await storeUsage(tx, thread.id, stored.id, answer.usage ?? []);
    const ids =
      pending.length === 0
        ? []
        : await tx
            .insert(proposals)
            .values(pending.map((p, position) => proposalRow(thread, stored.id, p, position)))
            .returning({ id: proposals.id });
    await tx
      .update(threads)
      .set({ updatedAt: new Date(), ...(endsTurn ? { turnStartedAt: null } : {}) })
      .where(eq(threads.id, thread.id));
    return ids.map((row) => row.id);
  });
}

export const NO_LONGER_EXECUTABLE = 'this proposal is no longer executable';
export const REPLACED = `${NO_LONGER_EXECUTABLE}: a newer answer replaced it`;

/**
 * Fails, with the reason, the thread's waiting proposals of answers before
 * `newest`: only the newest answer's proposals can run, so the thread must
 * not wait on older ones. Called in the transaction that stores `newest`.
 */
export async function failReplacedProposals(tx: Db, threadId: string, newest: number): Promise<void> {
  await tx
    .update(proposals)
    .set({ status: 'failed', result: { error: REPLACED }, decidedAt: new Date() })
    .where(and(eq(proposals.threadId, threadId), eq(proposals.status, 'pending'), lt(proposals.messageId, newest)));
}
