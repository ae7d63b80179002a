// A Server-Sent Events stream kept open across drops (a server restarting, a
// network blip): it opens again after a pause that grows from 0.5 s to 10 s
// (short again once it connects), sending the last event id it saw, until
// its last event came, the server refused it, or the caller aborts.
import { ApiError } from './client';
import { openEventStream, type ServerEvent } from './events';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;

export interface StreamHandlers {
  onEvent(event: ServerEvent): void;
  /** Whether this is the stream's last event: after it, the stream is not opened again. */
  isLast?(event: ServerEvent): boolean;
  /** The stream opened: events sent before it (or, `reopened`, while it was down) were not heard. */
  onOpen?(reopened: boolean): void;
}

export interface KeptStream {
  /** Settles once the server first answers; rejects when the first attempt fails. */
  listening: Promise<void>;
  /** Settles when the stream is over: its last event came, the server refused it, or the signal aborted. */
  done: Promise<void>;
}

export function keepEventStream(path: string, handlers: StreamHandlers, signal: AbortSignal, after: string | null = null): KeptStream {
  // Only the first attempt settles `listening`: later calls change nothing.
  let answered!: () => void;
  let failed!: (error: unknown) => void;
  const listening = new Promise<void>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  // Callers who do not wait for it must not see an unhandled rejection.
  listening.catch(() => undefined);

  async function keep(): Promise<void> {
    let lastId = after;
    let over = false;
    let pause = FIRST_PAUSE_MS;
    const onEvent = (event: ServerEvent) => {
      if (event.id) lastId = event.id;
      handlers.onEvent(event);
      if (handlers.isLast?.(event)) over = true;
    };
    for (let attempt = 0; !over && !signal.aborted; attempt++) {
      try {
        const { closed } = await openEventStream(path, onEvent, signal, lastId);
        answered();
        handlers.onOpen?.(attempt > 0);
        pause = FIRST_PAUSE_MS;
        await closed;
      } catch (error) {
        failed(error);
        // A refusal (the thread is gone, the token no longer accepted) does not change by asking again.
        if (error instanceof ApiError && error.status < 500 && error.status !== 429) return;
      }
      if (over || signal.aborted) return;
      await pauseFor(pause, signal);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }

  const done = keep().finally(() => failed(new Error('the stream ended before the server answered')));
  return { listening, done };
}

function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
