// One turn: store the operator's message (secrets parked, rate counted), then
// call the model up to eight times: read tools run at once as the operator,
// write tools become pending proposals. No model call happens inside a
// database transaction; the answer and its proposals are stored together.
import { randomUUID } from 'node:crypto';
import { eq, max, sql, type SQL } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { AppError, conflict, unavailable } from '../errors.js';
import type { Topic } from '../store/changes.js';
import { queryRows, type Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { sharesConsole } from '../conversation/context.js';
import { messages, parkedSecrets, threads } from '../store/schema.js';
import type { Invocation } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import type { AssistantDeps } from './deps.js';
import type { RunningTurn } from '../turns/running-turn.js';
import type { ToolCall } from '../wire/agent-work.js';
import { threadChangeTopic } from '../turns/topics.js';
import { shortTitle } from './thread-title.js';
import { builtInToolCall } from './tool-call-view.js';
import { parkSecrets } from './parking.js';
import { redactCredentials } from './redaction.js';
import { pinRevision } from './pinning.js';
import { endTurn, outsideThread, pendingProposal, proposedResult, storeAnswer } from './proposing.js';
import { historyOf, systemPrompt, type StoredMessage } from './prompt.js';
import { historyBudget, trimHistory } from './providers/history.js';
import {
  ProviderError,
  type ModelMessage,
  type ModelProvider,
  type ToolResultBlock,
  type ToolUseBlock,
} from './providers/types.js';
import { countMessage, type RecentSends } from './rate.js';
import { noSuchThread, proposalsJson, proposalViews, type StoredProposalView, type ThreadRecord } from './threads.js';
import { storeUsage, TurnUsage } from './usage.js';

const MAX_MODEL_CALLS = 8;
/** Tool results larger than this are cut before the model sees them. */
const MAX_RESULT_CHARS = 50_000;

// A turn commits twice, however many steps it takes: the claim with the
// message, and the answer with its proposals and the turn's events (read
// tools' audit entries go in the audit log's shared batches); each proposal
// is stored the moment it is made, and progress at most every few milliseconds.
export async function runTurn(deps: AssistantDeps, operator: Operator, threadId: string, text: string): Promise<void> {
  const stored = await storeMessage(deps, operator, threadId, text);
  const { thread, turn } = stored;
  deps.turns.hold(turn);
  turn.emit({ type: 'started' });
  const usage = new TurnUsage(deps.metrics);
  try {
    if (stored.provider) await converse(deps, stored.provider, operator, thread, usage, turn);
    // The agent gets the message as stored: a parked secret stays [secret:N].
    else await deps.agents.runTurn(turn, operator, thread, stored.text);
  } catch (error) {
    // The answer's transaction ends the turn and stores what it cost; anything short of it does both here.
    const sentence = error instanceof AppError ? error.message : 'the turn failed unexpectedly; your message is kept, send another to try again';
    await endTurn(deps, thread, turn, { type: 'ended', stop_reason: null, error: sentence }, (tx) => storeUsage(tx, thread.id, null, usage.calls)).catch(
      () => undefined,
    );
    throw error;
  } finally {
    deps.turns.release(turn);
  }
}

/**
 * Claims the operator's thread for this turn (NotFound when they have no
 * such thread), so two messages never run two turns (on however many
 * servers), nor one while a proposal waits; a turn whose server died is
 * stored as interrupted first, in a transaction of its own (Turns.claiming). An agent's turn counts against the cluster's
 * agent cap. Answers the thread, the model to call (null for a thread an
 * agent holds) and the turn with the statement that stores its row.
 */
async function claimTurn(
  deps: AssistantDeps,
  tx: Db,
  touch: (topic: Topic) => void,
  operator: Operator,
  threadId: string,
): Promise<{ thread: ThreadRecord; provider: ModelProvider | null; started: { turn: RunningTurn; insert: SQL } }> {
  const { thread, waiting } = isUuid(threadId) ? await deps.turns.free(tx, operator.id, threadId) : { thread: null, waiting: false };
  if (!thread) throw noSuchThread(threadId);
  const provider = thread.agent ? null : deps.provider;
  if (!thread.agent && !provider) throw unavailable(deps.notConfigured);
  if (waiting) throw conflict('a proposal is still waiting for a decision; accept or reject it first');
  if (thread.agent) await deps.agents.checkCapacity(tx, operator.id);
  return { thread, provider, started: deps.turns.begin(touch, { id: thread.id, operatorId: operator.id, agent: thread.agent }) };
}

/**
 * Claims the turn, counts the message against the rate, parks its secrets and
 * stores it, in one transaction: a 404, 409, 429 or 503 stores nothing and
 * claims nothing. Answers the thread, the model to call (null for a thread an
 * agent holds), the message as stored (secrets parked), and the turn.
 */
async function storeMessage(
  deps: AssistantDeps,
  operator: Operator,
  threadId: string,
  text: string,
): Promise<{ thread: ThreadRecord; provider: ModelProvider | null; text: string; turn: RunningTurn }> {
  return deps.turns.claiming(() => deps.changes.transaction(deps.db, async (tx, touch) => {
    const { thread, provider, started } = await claimTurn(deps, tx, touch, operator, threadId);
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
    // One statement: the message counted against the rate, the turn's row, the message, and the thread's time (and title, from its first message).
    const counted = countMessage(operator.id, deps.rate);
    const [recent] = await queryRows<RecentSends>(
      tx,
      sql`
      with ${counted.ctes}, started as (${started.insert}),
      message as (insert into ${messages} (thread_id, role, text) values (${thread.id}, 'user', ${parked.text})),
      touched as (
        update ${threads} set updated_at = now(), title = case when coalesce(title, '') = '' then ${shortTitle(parked.text)} else title end
        where id = ${thread.id}
      )
      select sent, oldest from recent`,
    );
    counted.check(recent);
    touch(threadChangeTopic(operator.id, { thread: thread.id, what: 'message' }));
    return { thread, provider, text: parked.text, turn: started.turn };
  }));
}

async function converse(
  deps: AssistantDeps,
  provider: ModelProvider,
  operator: Operator,
  thread: ThreadRecord,
  usage: TurnUsage,
  turn: RunningTurn,
): Promise<void> {
  const project = thread.project ? await deps.projects.find(operator, thread.project) : null;
  const environment = project?.environments.find((e) => e.name === thread.environment) ?? null;
  const so = await conversationSoFar(deps.db, thread.id);
  // The conversation tools come along when the operator shares their console with the thread.
  const conversation = so.shared;
  const invocation = (use: ToolUseBlock): Invocation => ({
    operator,
    via: 'assistant',
    scope: { project: thread.project, environment: thread.environment || null },
    threadId: thread.id,
    conversation,
    // A write the model calls waits for the operator's accept.
    propose: async (write) => {
      const id = randomUUID();
      turn.propose({ ...pendingProposal(await pinRevision(deps.db, write), thread, { id, toolUseId: use.id }), id });
      return proposedResult(id);
    },
  });
  const scope = { project: thread.project, environment: thread.environment || null };
  const tools = (await deps.executor.describe(operator, scope, { conversation, proposing: true }))
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

  // The system prompt and the tools stay as they are for the whole turn: so does what they leave for the history.
  const budget = historyBudget(deps.contextTokens, system, tools);
  const history = historyOf(so.messages, await proposalViews(deps.db, so.proposals));
  const exchange: ModelMessage[] = [];
  /** Reads that named a project or environment outside the thread's scope, as a write's proposal would say. */
  const notes: string[] = [];
  /** The tool calls as streamed, stored with the answer as the thread shows them. */
  const toolCalls: ToolCall[] = [];
  let stopReason = 'end_turn';
  // Cancel aborts the model call in flight; what the turn did so far is its answer.
  const cancelled = turn.signal;
  /** Blocks after the first are streamed with the blank line the answer's text puts between them. */
  let said = false;
  for (let call = 1; call <= MAX_MODEL_CALLS; call++) {
    let response;
    try {
      const messages = trimHistory([...history, ...exchange], budget);
      response = await provider.complete({ system, tools, messages }, cancelled);
    } catch (error) {
      if (cancelled.aborted) {
        stopReason = 'cancelled';
        break;
      }
      if (error instanceof ProviderError) throw unavailable(`${error.message}; your message is kept, send another to try again`);
      throw error;
    }
    usage.add(response.usage);
    exchange.push({ role: 'assistant', content: response.content });
    stopReason = response.stop_reason;
    for (const block of response.content) {
      if (block.type !== 'text' || block.text.trim() === '') continue;
      turn.emit({ type: 'text', delta: `${said ? '\n\n' : ''}${redactCredentials(block.text)}` });
      said = true;
    }
    const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) break;
    const results: ToolResultBlock[] = [];
    for (const use of uses) {
      const result = await answerToolUse(deps, invocation(use), use);
      results.push(result);
      const proposal = turn.proposals.find((p) => p.toolUseId === use.id);
      const outside = proposal || result.is_error ? null : outsideThread(thread, named(use.input.project), named(use.input.environment));
      if (outside) notes.push(`Note: ${use.name} read ${outside}.`);
      const view = builtInToolCall({
        id: use.id,
        name: use.name,
        input: JSON.stringify(use.input),
        result: result.content,
        isError: result.is_error === true,
        proposed: proposal !== undefined,
      });
      toolCalls.push(view);
      turn.emit({ type: 'tool_call', tool_call: view });
    }
    exchange.push({ role: 'user', content: results });
    if (stopReason !== 'tool_use' || cancelled.aborted) break;
  }
  // The notes are the answer's last text block, for the operator; the model's own blocks stay as they were.
  const note = notes.join('\n');
  const text = exchange
    .flatMap((m) => (m.role === 'assistant' ? m.content : []))
    .flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : []))
    .concat(note ? [note] : [])
    .join('\n\n');
  await storeAnswer(deps, thread, { text, blocks: exchange, toolCalls, stopReason, usage: usage.calls }, turn.proposals, turn);
}

/** A name the model gave in a tool input, or null when it gave none. */
function named(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
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

/** The thread's messages and proposals so far, and whether the console is shared with it: one statement. */
async function conversationSoFar(db: Db, threadId: string): Promise<{ messages: StoredMessage[]; proposals: StoredProposalView[]; shared: boolean }> {
  const [so] = await queryRows<{ messages: StoredMessage[]; proposals: StoredProposalView[]; shared: boolean }>(
    db,
    sql`select ${sharesConsole(threadId)} as shared, ${proposalsJson(threadId)} as proposals,
      (select coalesce(json_agg(json_build_object('id', ${messages.id}, 'role', ${messages.role}, 'text', ${messages.text}, 'blocks', ${messages.blocks}) order by ${messages.id}), '[]')
        from ${messages} where ${messages.threadId} = ${threadId}) as messages`,
  );
  if (!so) throw new Error('reading the conversation so far returned no row');
  return so;
}
