// The operator's conversations in which a proposal waits for a decision,
// whatever project and environment the page shows: the list is kept current
// by the tab's change stream.
import type { ThreadResponse } from '../../../src/wire/thread';
import { useThreads } from './threads';

export function useWaitingThreads(): ThreadResponse[] {
  return (useThreads().data ?? []).filter((thread) => thread.state === 'waiting');
}
