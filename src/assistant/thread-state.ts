// A thread's `state`, and how many of its waiting proposals are stale, from its messages and proposals.
import type { ThreadMessage } from '../wire/message.js';
import type { ProposalResponse } from '../wire/proposal.js';
import type { ThreadState } from '../wire/thread.js';

/**
 * `waiting` while any proposal waits; `refused` only while the last turn
 * stopped on a refusal: its answer is the newest message, so a message sent
 * since (a turn running, or one that failed) ends it.
 */
export function threadState(messages: ThreadMessage[], proposals: ProposalResponse[]): ThreadState {
  if (proposals.some((p) => p.status === 'pending')) return 'waiting';
  const newest = messages.at(-1);
  return newest?.role === 'assistant' && newest.stop_reason === 'refusal' ? 'refused' : 'idle';
}

/** How many of the proposals waiting for the operator are stale (their staleness is read in SQL with the thread). */
export function staleWaiting(proposals: ProposalResponse[]): number {
  return proposals.filter((p) => p.status === 'pending' && p.stale).length;
}
