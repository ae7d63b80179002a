// Whether the server answers: every request and stream the console opens
// reports here (a fetch that fails without an answer means the server or the
// network is away; any answer means it is back). The connection banner and
// the actions read it.
import { useSyncExternalStore } from 'react';

let reachable = true;
const listeners = new Set<() => void>();

function set(now: boolean): void {
  if (now === reachable) return;
  reachable = now;
  listeners.forEach((listener) => listener());
}

/** What a request that got no answer says, in place of the browser's "Failed to fetch". */
export const UNREACHABLE = 'the server cannot be reached';

/** `request`, reported: an answer (any status) says the server is there; a failed fetch that nobody aborted says it is not. */
export async function watched(request: Promise<Response>, signal?: AbortSignal | null): Promise<Response> {
  try {
    const response = await request;
    set(true);
    return response;
  } catch (error) {
    if (signal?.aborted) throw error;
    set(false);
    throw new Error(UNREACHABLE, { cause: error });
  }
}

export function useServerReachable(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => reachable,
  );
}

/** Why an action waits while the server is away. */
export const OFFLINE_REASON = `${UNREACHABLE}; this waits until it is back`;
