// A running turn as it streams (GET …/threads/{id}/events): text deltas,
// tool calls upserted by id, the plan, the proposals made so far. The final
// thread view replaces it when the turn's POST answers.
import { openEventStream } from '../api/events';
import type { PlanEntry, ToolCall, TurnEvent } from '../api/types';

export interface LiveTurn {
  text: string;
  toolCalls: ToolCall[];
  plan: PlanEntry[];
  proposals: { id: string; tool: string; title: string }[];
}

export const NO_PROGRESS: LiveTurn = { text: '', toolCalls: [], plan: [], proposals: [] };

export function applyTurnEvent(live: LiveTurn, event: TurnEvent): LiveTurn {
  switch (event.type) {
    case 'text':
      return { ...live, text: live.text + event.delta };
    case 'tool_call': {
      const call = event.tool_call;
      const known = live.toolCalls.some((c) => c.id === call.id);
      return { ...live, toolCalls: known ? live.toolCalls.map((c) => (c.id === call.id ? call : c)) : [...live.toolCalls, call] };
    }
    case 'plan':
      return { ...live, plan: event.entries };
    case 'proposal':
      return { ...live, proposals: [...live.proposals, { id: event.id, tool: event.tool, title: event.title }] };
    default:
      return live;
  }
}

/** Follows the thread's next turn; resolves once the server listens, so the turn's POST may go. */
export async function followTurn(threadId: string, onEvent: (event: TurnEvent) => void, signal: AbortSignal): Promise<void> {
  await openEventStream(`/api/v1/assistant/threads/${threadId}/events`, ({ data }) => onEvent(JSON.parse(data) as TurnEvent), signal);
}
