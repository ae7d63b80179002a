// The change notices of conversations: a thread's turn (started, stored
// events, ended), a cancel asked of it, and what changed in an operator's
// threads, for every tab on every server to follow; an agent's question answered, for the server that asked.
import type { TurnTopic } from '../store/changes.js';
import { THREAD_CHANGE_KINDS, type ThreadChange } from '../wire/thread-change.js';

export type ThreadChangeKind = ThreadChange['what'];

export const turnTopic = (threadId: string) => `turn:${threadId}` as const;
export const cancelTopic = (threadId: string) => `turn-cancel:${threadId}` as const;
export const questionTopic = (threadId: string) => `turn-question:${threadId}` as const;

export function threadChangeTopic(operatorId: string, change: ThreadChange): TurnTopic {
  return `threads:${operatorId}:${change.thread}:${change.what}`;
}

/** The change a topic announces to `operatorId`, or null when it is about something else. */
export function threadChangeOf(topic: string, operatorId: string): ThreadChange | null {
  const prefix = `threads:${operatorId}:`;
  if (!topic.startsWith(prefix)) return null;
  const [thread, what] = topic.slice(prefix.length).split(':');
  const kind = THREAD_CHANGE_KINDS.find((k) => k === what);
  return thread && kind ? { thread, what: kind } : null;
}
