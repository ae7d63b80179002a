// A thread's shared context each time its revision passes the last one sent:
// the agent's edit batches reach the open editor without a held request of
// their own (the multiplexed stream carries them).
import type { Operator } from '../access/operators.js';
import { findThread } from '../assistant/threads.js';
import type { Services } from '../services.js';
import type { Feed } from './feed.js';

/** How long one wait lasts before it is made again (the feed itself goes on). */
const WAIT_SECONDS = 60;
/** After a failed read (the store out of reach), the next try waits this long. */
const RETRY_MS = 2000;

export async function openContextFeed(services: Services, operator: Operator, threadId: string, after: number): Promise<Feed> {
  const thread = await findThread(services.db, operator, threadId);
  return async (send, closed) => {
    let revision = after;
    while (!closed.aborted) {
      try {
        const view = await services.contexts.waitForRevision(thread.id, revision, WAIT_SECONDS, closed);
        if (view.shared && view.revision > revision) {
          revision = view.revision;
          send({ type: 'context', data: view });
        }
      } catch {
        await new Promise((resume) => setTimeout(resume, RETRY_MS));
      }
    }
  };
}
