// One turn: store the operator's message (secrets parked, rate counted), then
// call the model up to eight times: read tools run at once as the operator,
// write tools become pending proposals. No model call happens inside a
// database transaction; the answer and its proposals are stored together.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lt, max, not, or, sql } from 'drizzle-orm';
import { runAgentTurn } from '../acp/turn.js';
import type { Operator } from '../access/operators.js';
import { AppError, conflict, unavailable } from '../errors.js';
import type { Db } from '../store/db.js';
import { messages, parkedSecrets, proposals, threads } from '../store/schema.js';
import type { Invocation } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import type { AssistantDeps } from './deps.js';
import type { ToolCallView, TurnEvent } from './events.js';
import { parkSecrets } from './parking.js';
import { redactCredentials } from './redaction.js';
import { outsideThread, pendingProposal, proposedResult, storeAnswer, type PendingProposal } from './proposing.js';
import { historyOf, systemPrompt, type StoredMessage } from './prompt.js';
import { historyBudget, trimHistory } from './providers/history.js';
import {
  ProviderError,
  type ModelMessage,
  type ModelProvider,
  type ToolResultBlock,
  type ToolUseBlock,
} from './providers/types.js';
import { countMessage } from './rate.js';
import { findThread, proposalView, type ThreadRecord } from './threads.js';
import { storeUsage, TurnUsage } from './usage.js';

const MAX_MODEL_CALLS = 8;
/** A turn claim older than this was left by a server that died mid-turn. */
const STALE_TURN_MS = 10 * 60 * 1000;
/** Tool results larger than this are cut before the model sees them. */
const MAX_RESULT_CHARS = 50_000;

// A turn commits twice, however many steps it takes: the claim with the
// message, and the answer with its proposals (read tools' audit entries go
// in the audit log's shared batches).
export async function runTurn(deps: AssistantDeps, operator: Operator, threadId: string, text: string): Promise<void> {
  const thread = await findThread(deps.db, operator, threadId);
  const stored = await storeMessage(deps, operator, thread, text);
  const usage = new TurnUsage(deps.metrics);
  try {
    if (stored.provider) await converse(deps, stored.provider, operator, thread, usage);
    // The agent gets the message as stored: a parked secret stays [secret:N].
    else await runAgentTurn(deps.agents, operator, thread, stored.text);
  } catch (error) {
    // The answer's transaction ends the turn and stores what it cost; anything short of it does both here.
    await deps.db.update(threads).set({ turnStartedAt: null }).where(eq(threads.id, thread.id));
    await storeUsage(deps.db, thread.id, null, usage.calls);
    throw error;
  }
}

/**
 * Claims the thread for this turn with a conditional update, so two messages
 * never run two turns (on however many servers), nor one while a proposal waits.
 */
async function claimTurn(db: Db, thread: ThreadRecord): Promise<void> {
  const waiting = sql<boolean>`exists (select 1 from ${proposals} where ${proposals.threadId} = ${thread.id} and ${proposals.status} = 'pending')`;
  const claimed = await db
    .update(threads)
    .set({ turnStartedAt: new Date() })
    .where(
      and(
        eq(threads.id, thread.id),
        or(isNull(threads.turnStartedAt), lt(threads.turnStartedAt, new Date(Date.now() - STALE_TURN_MS))),
        not(waiting),
      ),
    )
    .returning({ id: threads.id });
  if (claimed.length > 0) return;
  const [busy] = await db.select({ waiting }).from(threads).where(eq(threads.id, thread.id));
  throw conflict(
    busy?.waiting
      ? 'a proposal is still waiting for a decision; accept or reject it first'
      : 'the assistant is still answering this thread; wait for its answer',
  );
}

/**
 * Claims the turn, counts the message against the rate, parks its secrets and
 * stores it, in one transaction: a 409, 429 or 503 stores nothing and claims
 * nothing. Answers the model to call, or null for a thread an agent holds,
 * and the message as stored (secrets parked).
 */
async function storeMessage(
  deps: AssistantDeps,
  operator: Operator,
  thread: ThreadRecord,
  text: string,
): Promise<{ provider: ModelProvider | null; text: string }> {
  return deps.db.transaction(async (tx) => {
    await claimTurn(tx, thread);
    await countMessage(tx, operator.id, deps.rate);
    const provider = thread.agent ? null : deps.provider;
    if (!thread.agent && !provider) throw unavailable(deps.notConfigured);
    let parked = parkSecrets(text, 1);
    if (parked.values.length > 0) {
      // Numbers go on from the thread's last parked value; most messages have none to look up.
      const [numbers] = await tx
        .select({ last: max(parkedSecrets.number) })
        .from(parkedSecrets)
        .where(eq(parkedSecrets.threadId, thread.id));
      const first = (numbers?.last ?? 0) + 1;
      parked = parkSecrets(text, first);
      await tx
        .insert(parkedSecrets)
        .values(parked.values.map((value, i) => ({ threadId: thread.id, number: first + i, sealed: deps.secretBox.seal(value) })));
    }
    await tx.insert(messages).values({ threadId: thread.id, role: 'user', text: parked.text });
    await tx
      .update(threads)
      .set({ updatedAt: new Date(), ...(thread.title ? {} : { title: titleOf(parked.text) }) })
      .where(eq(threads.id, thread.id));
    return { provider, text: parked.text };
  });
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

async function converse(deps: AssistantDeps, provider: ModelProvider, operator: Operator, thread: ThreadRecord, usage: TurnUsage): Promise<void> {
  const project = thread.project ? await deps.projects.find(operator, thread.project) : null;
  const environment = project?.environments.find((e) => e.name === thread.environment) ?? null;
  // The conversation tools come along when the operator shares their console with the thread.
  const conversation = (await deps.contexts.read(thread.id)).shared;
  const pending: PendingProposal[] = [];
  const invocation = (use: ToolUseBlock): Invocation => ({
    operator,
    via: 'assistant',
    scope: { project: thread.project, environment: thread.environment || null },
    threadId: thread.id,
    conversation,
    // A write the model calls waits for the operator's accept.
    propose: (write) => {
      const id = randomUUID();
      pending.push(pendingProposal(write, thread, { id, toolUseId: use.id }));
      return proposedResult(id);
    },
  });
  const scope = { project: thread.project, environment: thread.environment || null };
  const tools = (await deps.executor.describe(operator, scope, { conversation }))
    .filter((t) => t.allowed)
    .map(({ name, description, input_schema }) => ({ name, description, input_schema }));
  const system = systemPrompt({
    operator: operator.name,
    role: project?.role ?? 'none',
    project: thread.project,
    environment: thread.environment,
    protectedEnvironment: environment?.protected ?? false,
    page: thread.page,
  });

  const history = historyOf(await storedMessages(deps.db, thread.id), await storedProposals(deps.db, thread.id));
  const exchange: ModelMessage[] = [];
  /** Reads that named a project or environment outside the thread's scope, as a write's proposal would say. */
  const notes: string[] = [];
  let stopReason = 'end_turn';
  // Cancel aborts the model call in flight; what the turn did so far is its answer.
  const cancel = new AbortController();
  const unregister = deps.running.register(thread.id, () => cancel.abort());
  const emit = (event: TurnEvent) => deps.events.emit(thread.id, event);
  emit({ type: 'started' });
  try {
    for (let call = 1; call <= MAX_MODEL_CALLS; call++) {
      let response;
      try {
        const messages = trimHistory([...history, ...exchange], historyBudget(deps.contextTokens, system, tools));
        response = await provider.complete({ system, tools, messages }, cancel.signal);
      } catch (error) {
        if (cancel.signal.aborted) {
          stopReason = 'cancelled';
          break;
        }
        if (error instanceof ProviderError) {
          const sentence = `${error.message}; your message is kept, send another to try again`;
          emit({ type: 'ended', stop_reason: null, error: sentence });
          throw unavailable(sentence);
        }
        throw error;
      }
      usage.add(response.usage);
      exchange.push({ role: 'assistant', content: response.content });
      stopReason = response.stop_reason;
      for (const block of response.content) if (block.type === 'text') emit({ type: 'text', delta: redactCredentials(block.text) });
      const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (uses.length === 0) break;
      const results: ToolResultBlock[] = [];
      for (const use of uses) {
        const result = await answerToolUse(deps, invocation(use), use);
        results.push(result);
        const proposal = pending.find((p) => p.toolUseId === use.id);
        const outside = proposal || result.is_error ? null : outsideThread(thread, named(use.input.project), named(use.input.environment));
        if (outside) notes.push(`Note: ${use.name} read ${outside}.`);
        emit({ type: 'tool_call', tool_call: toolCallView(use, result, proposal !== undefined) });
        if (proposal?.id) emit({ type: 'proposal', id: proposal.id, tool: proposal.tool, title: proposal.title });
      }
      exchange.push({ role: 'user', content: results });
      if (stopReason !== 'tool_use' || cancel.signal.aborted) break;
    }
  } finally {
    unregister();
  }
  // The notes are the answer's last text block, for the operator; the model's own blocks stay as they were.
  const note = notes.join('\n');
  const text = exchange
    .flatMap((m) => (m.role === 'assistant' ? m.content : []))
    .flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : []))
    .concat(note ? [note] : [])
    .join('\n\n');
  await storeAnswer(deps.db, thread, { text, blocks: exchange, stopReason, usage: usage.calls }, pending, { endsTurn: true });
  emit({ type: 'ended', stop_reason: stopReason });
}

/** A name the model gave in a tool input, or null when it gave none. */
function named(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A tool use of the built-in model as the live progress shows it. */
function toolCallView(use: ToolUseBlock, result: ToolResultBlock, proposed: boolean): ToolCallView {
  return {
    id: use.id,
    title: use.name,
    kind: proposed ? 'edit' : 'read',
    status: result.is_error ? 'failed' : proposed ? 'pending' : 'completed',
    locations: [],
  };
}

/** A read runs now; a write becomes a proposal (the invocation proposes); a refusal goes back to the model as it is. */
async function answerToolUse(deps: AssistantDeps, invocation: Invocation, use: ToolUseBlock): Promise<ToolResultBlock> {
  try {
    const outcome = await deps.executor.run(invocation, use.name, use.input);
    return toolResult(use, outcome.result, outcome.is_error);
  } catch (error) {
    if (error instanceof AppError) return toolResult(use, { error: error.message }, true);
    throw error;
  }
}

function toolResult(use: ToolUseBlock, result: ToolResult, isError: boolean): ToolResultBlock {
  let content = JSON.stringify(result);
  if (content.length > MAX_RESULT_CHARS) {
    content = `${content.slice(0, MAX_RESULT_CHARS)}… [cut: the result was ${content.length} characters]`;
  }
  return { type: 'tool_result', tool_use_id: use.id, content, ...(isError ? { is_error: true } : {}) };
}

async function storedMessages(db: Db, threadId: string): Promise<StoredMessage[]> {
  const rows = await db
    .select({ id: messages.id, role: messages.role, text: messages.text, blocks: messages.blocks })
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .orderBy(asc(messages.id));
  return rows.map((r) => ({ ...r, blocks: (r.blocks as ModelMessage[] | null) ?? null }));
}

async function storedProposals(db: Db, threadId: string) {
  const rows = await db.select().from(proposals).where(eq(proposals.threadId, threadId)).orderBy(asc(proposals.messageId), asc(proposals.position));
  return rows.map(proposalView);
}
