// The operator's conversations in which a proposal waits for a decision,
// whatever project and environment the page shows: the list is kept current
// by the tab's change stream (a document, environment or project notice reads
// the threads again, so a proposal turning stale shows here at once).
import type { ThreadResponse } from '../../../src/wire/thread';
import { useThreads } from './threads';

export function useWaitingThreads(): ThreadResponse[] {
  return (useThreads().data ?? []).filter((thread) => thread.state === 'waiting');
}

/** A waiting conversation's proposals that still wait, and how many of them can no longer run as shown. */
export function waitingOf(thread: ThreadResponse): { count: number; stale: number; reason: string | null } {
  const waiting = thread.proposals.filter((p) => p.status === 'pending');
  const stale = waiting.filter((p) => p.stale);
  return { count: waiting.length, stale: stale.length, reason: stale[0]?.stale_reason ?? null };
}

/** Every proposal the conversation waits on is stale: nothing there would run as shown, only rejecting or asking again. */
export function onlyStale(thread: ThreadResponse): boolean {
  const { count, stale } = waitingOf(thread);
  return count > 0 && stale === count;
}
