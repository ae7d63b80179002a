// "New conversation" reuses an empty one rather than pile them up: the one
// shown, else the newest of the scope, held by the same holder (the built-in
// assistant or that agent), with no message and no turn running. A thread
// this tab is sending to is not empty, whatever its stored view still says:
// its message and answer are on their way.
import type { ThreadResponse } from '../../../src/wire/thread';

/** `agent` null: the built-in assistant; `sendingTo`: the thread of the turn this tab shows, if any. */
export function reusableThread(
  shown: ThreadResponse | null,
  scoped: readonly ThreadResponse[],
  agent: string | null,
  sendingTo: string | null,
): ThreadResponse | null {
  const empty = (thread: ThreadResponse) =>
    thread.id !== sendingTo && thread.messages.length === 0 && thread.turn === null && thread.agent === agent;
  if (shown && empty(shown)) return shown;
  return scoped.find(empty) ?? null;
}

/** What the picker lists: the conversations with something said, and the one shown even while empty. */
export function pickable(scoped: readonly ThreadResponse[], shown: ThreadResponse | null): ThreadResponse[] {
  return scoped.filter((thread) => thread.messages.length > 0 || thread.id === shown?.id);
}
