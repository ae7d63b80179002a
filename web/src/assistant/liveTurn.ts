// A running turn as it streams (the `turn:<thread>` topic of the browser's one stream): text deltas,
// tool calls upserted by id, the plan, the proposals made so far, the agent's
// questions that wait. The thread
// as stored replaces it once the turn has ended.
import { type Follow, followTopic } from '../api/topics';
import type { PlanEntry, ToolCall } from '../../../src/wire/agent-work';
import type { Question } from '../../../src/wire/question';
import type { TurnEvent } from '../../../src/wire/turn-event';

export interface LiveTurn {
  text: string;
  toolCalls: ToolCall[];
  plan: PlanEntry[];
  /** As their events name them: the cards come with the stored answer. */
  proposals: Omit<Extract<TurnEvent, { type: 'proposal' }>, 'type'>[];
  /** The agent's questions that wait for the operator. */
  questions: Question[];
}

export const NO_PROGRESS: LiveTurn = { text: '', toolCalls: [], plan: [], proposals: [], questions: [] };

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
    case 'question':
      return { ...live, questions: [...live.questions, event.question] };
    case 'question_closed':
      return { ...live, questions: live.questions.filter((q) => q.id !== event.id) };
    default:
      return live;
  }
}

/**
 * Follows the thread's running turn from its first event (or the next turn to
 * start, on whichever server) until it ends, going on after the last event
 * seen when the stream drops. `listening` settles once the server listens, so
 * a POST that starts the turn may go; `turnId` is the turn's, from the event ids.
 * `after` (an event id) follows that event's turn from the next one on.
 */
export function followTurn(threadId: string, onEvent: (event: TurnEvent, turnId: string) => void, signal: AbortSignal, after: string | null = null): Follow {
  return followTopic(
    after ? `turn:${threadId}@${after}` : `turn:${threadId}`,
    {
      // Each event's id is `<turn>:<seq>`.
      onEvent: ({ id, data }) => onEvent(JSON.parse(data) as TurnEvent, id?.split(':')[0] ?? ''),
      isLast: ({ event }) => event === 'ended',
    },
    signal,
  );
}
