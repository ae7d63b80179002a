// One turn of a thread held by an agent: the operator's message (parked
// values stay `[secret:N]`) goes to the agent's session with a link to the
// shared document; its updates become the answer, stored with the proposals
// its writes made, and streamed as they come. Stop works from the turn's first
// moment: a start is aborted, a prompt cancelled, and the agent stopped once
// it answered the cancel (at once when it ignores it); the turn timeout does the same. An agent that fails
// or dies fails the turn with 503.
import { asc, eq } from 'drizzle-orm';
import type * as acp from '@agentclientprotocol/sdk';
import type { Operator } from '../access/operators.js';
import { storeAnswer } from '../assistant/proposing.js';
import { agentUsageRow, countAgentUsage } from '../assistant/usage.js';
import type { ThreadRecord } from '../assistant/threads.js';
import { choicesOf } from '../assistant/agent-options.js';
import { unavailable } from '../errors.js';
import { messages } from '../store/schema.js';
import { AgentAnswer } from './answer.js';
import type { AgentHost } from './host.js';
import type { AgentSession, RunningAgentTurn } from './hosting.js';
import { applyChoices, storeOptions } from './options.js';
import { notePromptUsage } from './reported-usage.js';
import type { RunningTurn } from '../turns/running-turn.js';

/** Characters per token, roughly: the transcript of a new session is kept within the context budget. */
const CHARS_PER_TOKEN = 4;
/** How long an agent has to honour session/cancel before it is stopped. */
const CANCEL_GRACE_MS = 2_000;

export async function runAgentTurn(host: AgentHost, running: RunningTurn, operator: Operator, thread: ThreadRecord, text: string): Promise<void> {
  const { deps } = host;
  const release = host.busy(thread.id);
  const turn: RunningAgentTurn = {
    answer: new AgentAnswer((event) => running.emit(event), deps.config.agentAnswerMaxBytes),
    cancelled: false,
    usage: { agent: thread.agent ?? '', session: '' },
  };
  const starting = new AbortController();
  let session: AgentSession | null = null;
  let stopping: NodeJS.Timeout | undefined;
  const cancel = () => {
    if (turn.cancelled) return;
    turn.cancelled = true;
    starting.abort(new Error('cancelled'));
    if (!session) return;
    void session.agent.agent.notify('session/cancel', { sessionId: session.sessionId }).catch(() => undefined);
    stopping = setTimeout(() => void host.stop(thread.id), CANCEL_GRACE_MS);
  };
  running.signal.addEventListener('abort', cancel);
  const timeout = setTimeout(() => running.requestCancel(), deps.config.agentTurnTimeoutMs);
  try {
    let stopReason: acp.StopReason = 'cancelled';
    try {
      session = await host.sessionFor(operator, thread, starting.signal);
    } catch (error) {
      if (!turn.cancelled) throw error;
    }
    if (session && !turn.cancelled) {
      await applyOperatorChoices(host, session, thread);
      stopReason = await prompt(host, session, thread, turn, text);
    }
    const usage = turn.usage.session === '' ? null : await agentUsageRow(deps.db, thread.id, turn.usage);
    await storeAnswer(deps, thread, { text: turn.answer.text(), blocks: turn.answer.blocks(), stopReason, agentUsage: usage }, running.proposals, running);
    if (usage) countAgentUsage(deps.metrics, usage);
    // Stop ends the agent, and with its sandbox whatever it started, even what left its process group
    // (nothing tells a tool's leftover from what the session needs); the next message starts it again.
    if (turn.cancelled && session) await host.stop(thread.id);
  } finally {
    clearTimeout(timeout);
    clearTimeout(stopping);
    running.signal.removeEventListener('abort', cancel);
    release();
  }
}

/** What the operator chose among the agent's options, set before the prompt; a failure to set one fails the turn with a sentence. */
async function applyOperatorChoices(host: AgentHost, session: AgentSession, thread: ThreadRecord): Promise<void> {
  try {
    if (await applyChoices(session.agent, session.sessionId, session.offered, choicesOf(thread))) {
      await storeOptions(host.deps.db, thread.id, session.agent.config.name, session.offered);
    }
  } catch (error) {
    throw unavailable(`agent ${thread.agent} did not take the options you chose: ${session.agent.why(error)}; your message is kept`);
  }
}

/** The prompt's stop reason: `cancelled` when the turn was, even when the agent had to be stopped for it. */
async function prompt(host: AgentHost, session: AgentSession, thread: ThreadRecord, turn: RunningAgentTurn, text: string): Promise<acp.StopReason> {
  session.turn = turn;
  turn.usage.session = session.sessionId;
  try {
    session.cpu.turnStarts();
    const answered = session.agent.agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: await promptOf(host, session, thread, text),
    });
    // A process that dies leaves its request unanswered: its exit ends the wait.
    const exited = session.agent.exited.then(() => Promise.reject(new Error('the agent exited')));
    const response = await Promise.race([answered, exited]);
    notePromptUsage(turn.usage, response);
    return turn.cancelled ? 'cancelled' : response.stopReason;
  } catch (error) {
    if (turn.cancelled) return 'cancelled';
    const gone = !session.agent.running || (await Promise.race([session.agent.exited.then(() => true), settle()]));
    const sentence = session.stoppedFor
      ? `${session.stoppedFor}; your message is kept, send another to start it afresh`
      : gone
      ? `agent ${thread.agent} stopped mid-turn; your message is kept, send another to start it afresh`
      : `agent ${thread.agent} failed: ${session.agent.why(error)}; your message is kept, send another to try again`;
    // Its connection may be broken (a message over the size Aion reads): the next message starts it afresh.
    if (!gone) await host.stop(thread.id);
    throw unavailable(sentence);
  } finally {
    session.turn = null;
  }
}

/** Gives a process that is exiting a moment to say so. */
const settle = () => new Promise<false>((resolve) => setTimeout(() => resolve(false), 50));

/**
 * The text, after the thread's transcript when the session is new over an
 * older thread, and a link to the shared document under the agent's folder.
 */
async function promptOf(host: AgentHost, session: AgentSession, thread: ThreadRecord, text: string): Promise<acp.ContentBlock[]> {
  const blocks: acp.ContentBlock[] = [];
  if (session.needsTranscript) {
    session.needsTranscript = false;
    const transcript = await transcriptOf(host, thread, host.deps.config.contextTokens * CHARS_PER_TOKEN);
    if (transcript) blocks.push({ type: 'text', text: `Earlier in this conversation:\n${transcript}\n\nThe operator now says:` });
  }
  blocks.push({ type: 'text', text });
  const context = await host.deps.contexts.read(thread.id);
  if (context.shared && context.document) {
    const file = `${session.files.work}/${context.document.path}`;
    blocks.push({ type: 'resource_link', name: context.document.path, uri: `file://${file}`, mimeType: 'text/yaml' });
  }
  return blocks;
}

/** The thread's messages before the newest, newest kept first when they exceed `budget` characters. */
async function transcriptOf(host: AgentHost, thread: ThreadRecord, budget: number): Promise<string> {
  const rows = await host.deps.db
    .select({ role: messages.role, text: messages.text })
    .from(messages)
    .where(eq(messages.threadId, thread.id))
    .orderBy(asc(messages.id));
  const lines: string[] = [];
  let size = 0;
  for (const row of rows.slice(0, -1).reverse()) {
    const line = `${row.role === 'user' ? 'operator' : 'you'}: ${row.text}`;
    if (size + line.length > budget) break;
    lines.unshift(line);
    size += line.length;
  }
  return lines.join('\n');
}
