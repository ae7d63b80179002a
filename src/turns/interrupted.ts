// What an interrupted turn had done, read back from its stored events: the
// text it had said, its tool calls and plan, and the proposals it made, so
// its answer can be stored and its proposals wait.
import type { PlanEntry, ToolCall } from '../wire/agent-work.js';
import type { AgentBlocks } from './events.js';
import type { PendingProposal } from './proposal.js';
import type { StoredTurnEvent } from './running-turn.js';

export interface InterruptedTurn {
  threadId: string;
  text: string;
  /** An agent's tool calls and plan, as its answers keep them; null for the built-in assistant. */
  blocks: AgentBlocks | null;
  /** The built-in assistant's tool calls, as its answers keep them. */
  toolCalls: ToolCall[];
  proposals: PendingProposal[];
}

/** Says what happened below whatever the turn had said. */
export const INTERRUPTED_NOTE = 'The server answering this turn stopped before it ended; this is what it had said. Send a message to go on.';

export function interruptedTurn(threadId: string, agent: string | null, events: readonly StoredTurnEvent[]): InterruptedTurn {
  let text = '';
  const toolCalls = new Map<string, ToolCall>();
  let plan: PlanEntry[] = [];
  const proposals: PendingProposal[] = [];
  for (const event of events) {
    if (event.type === 'text') text += event.delta;
    else if (event.type === 'tool_call') toolCalls.set(event.tool_call.id, event.tool_call);
    else if (event.type === 'plan') plan = event.entries;
    else if (event.type === 'proposal' && 'pending' in event) proposals.push(event.pending);
  }
  return {
    threadId,
    text: [text.trim(), INTERRUPTED_NOTE].filter((t) => t !== '').join('\n\n'),
    blocks: agent ? { acp: { tool_calls: [...toolCalls.values()], plan } } : null,
    toolCalls: agent ? [] : [...toolCalls.values()],
    proposals,
  };
}
