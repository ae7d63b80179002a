// An agent attached to a conversation with its session credential: it reads
// and uses the conversation tools at once, and each public write it calls
// becomes a pending proposal on the thread, on an answer recorded for it, so
// the panel shows it like any answer's proposal (mid-turn, on that turn's
// answer: the thread's own agent's turn) — only while a turn of the thread
// runs: between turns it is refused with a sentence. The connection's
// restrictions (read-only, the tool filter) bind it like any other caller.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { Db } from '../store/db.js';
import { turns } from '../store/schema.js';
import type { Restrictions, ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import type { AssistantDeps } from './deps.js';
import { pinRevision } from './pinning.js';
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
  let refused = false;
  const { is_error, result } = await deps.executor.run(
    {
      ...restrictions,
      operator,
      via: 'mcp',
      scope: scopeOf(thread),
      threadId: thread.id,
      conversation: true,
      propose: async (proposed) => {
        const write = await pinRevision(deps.db, proposed);
        // The thread's own agent, mid-turn here: the proposal goes on that turn's answer, stored at once.
        const turn = deps.turns.runningHere(thread.id);
        if (turn?.agent) {
          const id = randomUUID();
          turn.propose({ ...pendingProposal(write, thread, { id, toolUseId: `agent-${id}` }), id });
          return proposedResult(id);
        }
        // Between turns nobody is shown it as it is made, and Accept all would find it (DESIGN.md §14).
        if (!(await turnRunning(deps.db, thread.id))) {
          refused = true;
          return { error: betweenTurns(name) };
        }
        return proposedResult(await storeAttachedProposal(deps, thread, pendingProposal(write, thread, null)));
      },
    },
    name,
    input,
  );
  return { tool: name, is_error: is_error || refused, result };
}

/** The sentence an agent reads when it proposes while its thread runs no turn. */
export function betweenTurns(tool: string): string {
  return `${tool} was not proposed: a change is proposed only inside a running turn of this conversation, and none runs now; the operator starts one by sending a message`;
}

/** Whether a turn of the thread runs now, on any server (its lease alive). */
async function turnRunning(db: Db, threadId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: turns.id })
    .from(turns)
    .where(and(eq(turns.threadId, threadId), isNull(turns.endedAt), gt(turns.leaseUntil, sql`now()`)))
    .limit(1);
  return row !== undefined;
}
