// ThreadResponse, ThreadMessage and ProposalResponse, exactly as the spec has them.
import type { ProposalRow } from '../tools/types.js';
import type { PlanEntryView, ToolCallView } from './events.js';

export interface ThreadMessageView {
  at: string;
  id: number;
  role: 'user' | 'assistant';
  stop_reason: string | null;
  text: string;
  /** An agent's answer: the tool calls it made (refused ones with the sentence why) and its plan. */
  tool_calls?: ToolCallView[];
  plan?: PlanEntryView[];
}

export interface ProposalView {
  decided_at: string | null;
  environment: string;
  id: string;
  message_id: number;
  permission: string;
  project: string | null;
  /** `{}` while pending; the tool's result, or `{"error": …}` on a rejection or a failure. */
  result: Record<string, unknown>;
  rows: ProposalRow[];
  status: 'pending' | 'accepted' | 'rejected' | 'failed';
  tag: 'read' | 'write';
  title: string;
  tool: string;
}

export type ThreadState = 'idle' | 'waiting' | 'refused';

export interface ThreadView {
  created_at: string;
  environment: string;
  id: string;
  /** The ACP agent holding the thread; null for the built-in assistant. */
  agent: string | null;
  messages: ThreadMessageView[];
  page: string;
  project: string | null;
  proposals: ProposalView[];
  role: string;
  state: ThreadState;
  title: string;
  updated_at: string;
}

/**
 * `waiting` while any proposal waits; `refused` only while the last turn
 * stopped on a refusal: its answer is the newest message, so a message sent
 * since (a turn running, or one that failed) ends it.
 */
export function threadState(messages: ThreadMessageView[], proposals: ProposalView[]): ThreadState {
  if (proposals.some((p) => p.status === 'pending')) return 'waiting';
  const newest = messages.at(-1);
  return newest?.role === 'assistant' && newest.stop_reason === 'refusal' ? 'refused' : 'idle';
}
