// An agent attached to a conversation with its session credential: it reads
// and uses the conversation tools at once, and each public write it calls
// becomes a pending proposal on the thread, on an answer recorded for it, so
// the panel shows it like any answer's proposal.
import type { Operator } from '../access/operators.js';
import type { Invocation, ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import type { AssistantDeps } from './deps.js';
import { pendingProposal, proposedResult, storeAnswer } from './proposing.js';
import { findThread, type ThreadRecord } from './threads.js';

const scopeOf = (thread: ThreadRecord) => ({ project: thread.project, environment: thread.environment || null });

function invocationFor(operator: Operator, thread: ThreadRecord): Invocation {
  return { operator, via: 'mcp', scope: scopeOf(thread), threadId: thread.id, conversation: true };
}

/** The conversation's tools and the public ones, as the thread's scope allows them. */
export async function agentTools(deps: AssistantDeps, operator: Operator, threadId: string): Promise<ToolDescriptor[]> {
  const thread = await findThread(deps.db, operator, threadId);
  return deps.executor.describe(operator, scopeOf(thread), { conversation: true });
}

export async function agentCall(
  deps: AssistantDeps,
  operator: Operator,
  threadId: string,
  name: string,
  input: unknown,
): Promise<ToolCallResponse> {
  const thread = await findThread(deps.db, operator, threadId);
  const invocation = invocationFor(operator, thread);
  if (!deps.executor.writes(name)) {
    const { is_error, result } = await deps.executor.run(invocation, name, input);
    return { tool: name, is_error, result };
  }
  const prepared = await deps.executor.prepare(invocation, name, input);
  if (!prepared.ready) return { tool: name, is_error: true, result: prepared.outcome.result };
  const proposal = pendingProposal(prepared, thread, `agent-${Date.now()}`);
  // The thread's own agent, mid-turn here: the proposal goes on that turn's answer, and the turn keeps its claim.
  if (deps.agents.propose(thread.id, proposal)) return { tool: name, is_error: false, result: proposedResult(proposal) };
  await storeAnswer(deps.db, thread, { text: `An agent in this conversation proposes: ${proposal.title}.`, blocks: null, stopReason: null }, [proposal]);
  return { tool: name, is_error: false, result: proposedResult(proposal) };
}
