// What a turn does as it happens, agent and built-in turns alike: the events
// `GET …/threads/{id}/events` streams (their wire types), stored as they happen.
import type { PlanEntry, ToolCall } from '../wire/agent-work.js';

/** What an agent answer keeps in its message's `blocks`, beside the text: what the thread view shows of it. */
export interface AgentBlocks {
  acp: { tool_calls: ToolCall[]; plan: PlanEntry[] };
}
