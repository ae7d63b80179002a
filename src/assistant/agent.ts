// An agent attached to a conversation with its session credential: it reads
// and uses the conversation tools at once, and each public write it calls
// becomes a pending proposal on the thread, on an answer recorded for it, so
// the panel shows it like any answer's proposal (mid-turn, on that turn's
// answer: the thread's own agent's turn). The connection's
// restrictions (read-only, the tool filter) bind it like any other caller.
import { randomUUID } from 'node:crypto';
import type { Operator } from '../access/operators.js';
import type { Restrictions, ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import type { AssistantDeps } from './deps.js';
import { pendingProposal, proposedResult, storeAttachedProposal } from './proposing.js';
import { findThread, type ThreadRecord } from './threads.js';

const scopeOf = (thread: ThreadRecord) => ({ project: thread.project, environment: thread.environment || null });

/** The conversation's tools and the public ones, as the thread's scope and the connection allow them. */
export async function agentTools(deps: AssistantDeps, operator: Operator, threadId: string, restrictions: Restrictions): Promise<ToolDescriptor[]> {
  const thread = await findThread(deps.db, operator, threadId);
  return deps.executor.describe(operator, scopeOf(thread), { ...restrictions, conversation: true, proposing: true });
}

export async function agentCall(
  deps: AssistantDeps,
  operator: Operator,
  threadId: string,
  name: string,
  input: unknown,
  restrictions: Restrictions,
): Promise<ToolCallResponse> {
  const thread = await findThread(deps.db, operator, threadId);
  const { is_error, result } = await deps.executor.run(
    {
      ...restrictions,
      operator,
      via: 'mcp',
      scope: scopeOf(thread),
      threadId: thread.id,
      conversation: true,
      propose: async (write) => {
        // The thread's own agent, mid-turn here: the proposal goes on that turn's answer, stored at once.
        const turn = deps.turns.runningHere(thread.id);
        if (turn?.agent) {
          const id = randomUUID();
          turn.propose({ ...pendingProposal(write, thread, { id, toolUseId: `agent-${id}` }), id });
          return proposedResult(id);
        }
        return proposedResult(await storeAttachedProposal(deps, thread, pendingProposal(write, thread, null)));
      },
    },
    name,
    input,
  );
  return { tool: name, is_error, result };
}
