// One topic a client follows (its threads' changes, a project's, a turn's
// events, a thread's shared context), written once and sent either alone on
// its own route or beside others on the multiplexed stream (http/routes/stream).
export interface FeedEvent {
  /** An id the client can resume after (a turn's `<turn>:<seq>`). */
  id?: string;
  type: string;
  data: unknown;
}

/** Sends the topic's events until `closed` aborts; resolves early when the topic has nothing more to say. */
export type Feed = (send: (event: FeedEvent) => void, closed: AbortSignal) => Promise<void>;

/** Resolves when `signal` aborts (at once if it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
