// A thread's running turn, agent or built-in, from its first event (or of
// the next to start) until it ends, on whichever server it runs; each event
// has an id `<turn>:<seq>` that resumes after it.
import type { Operator } from '../access/operators.js';
import { findThread } from '../assistant/threads.js';
import type { Services } from '../services.js';
import type { EventCursor } from '../turns/turns.js';
import type { Feed } from './feed.js';

/** `<turn>:<seq>`, as the feed numbers its events; anything else starts afresh. */
export function cursorOf(id: string | undefined): EventCursor | null {
  const match = /^([0-9a-f-]{36}):(\d{1,9})$/i.exec(id ?? '');
  return match?.[1] && match[2] ? { turn: match[1].toLowerCase(), seq: Number(match[2]) } : null;
}

/** The thread's turn feed; someone else's thread (or none) is a 404 thrown here. */
export async function openTurnFeed(services: Services, operator: Operator, threadId: string, after: EventCursor | null): Promise<Feed> {
  const thread = await findThread(services.db, operator, threadId);
  // Taken before the stream opens: what its client does once it follows is after it.
  const mark = await services.turns.mark(thread.id);
  return (send, closed) => services.turns.follow(thread.id, after, (id, event) => send({ id, type: event.type, data: event }), closed, mark);
}
