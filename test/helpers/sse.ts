// Following a thread's turn over Server-Sent Events in tests, as the console
// does: each event with its id, the raw text kept too.
import type { TurnEvent } from '../../src/wire/turn-event.js';

export interface StreamedEvent {
  id: string | null;
  type: string;
  data: TurnEvent;
  /** performance.now() when it arrived. */
  at: number;
}

export interface FollowedTurn {
  /** Resolves once the server listens: a turn started after it is seen from its first event. */
  open: Promise<void>;
  /** Every event so far, in order. */
  events: StreamedEvent[];
  /** The stream's raw text so far. */
  raw(): string;
  /** Resolves with the events once the stream ends (after `ended`); rejects when it breaks. */
  done: Promise<StreamedEvent[]>;
  /** Resolves once an event that `matches` arrives (at once when one has). */
  until(matches: (event: StreamedEvent) => boolean, timeoutMs?: number): Promise<StreamedEvent>;
  /** Drops the connection, as a client that goes away does. */
  close(): void;
}

/** What the server sent of each event, without when it arrived: to compare two streams. */
export function asSent(events: readonly StreamedEvent[]): Omit<StreamedEvent, 'at'>[] {
  return events.map(({ id, type, data }) => ({ id, type, data }));
}

/** Follows `GET …/threads/{id}/events` on `base`; `lastEventId` resumes after that event. */
export function followTurn(base: string, token: string, threadId: string, options: { lastEventId?: string } = {}): FollowedTurn {
  const abort = new AbortController();
  const events: StreamedEvent[] = [];
  const waiters = new Set<() => void>();
  let raw = '';
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = (async () => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    const response = await fetch(`${base}/api/v1/assistant/threads/${threadId}/events`, { headers, signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (finished) return events;
      const text = decoder.decode(value, { stream: true });
      raw += text;
      buffered += text;
      if (raw.includes('following')) opened();
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames) {
        const field = (name: string) => frame.split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
        const data = field('data');
        if (data === null) continue;
        events.push({ id: field('id'), type: field('event') ?? 'message', data: JSON.parse(data) as TurnEvent, at: performance.now() });
        for (const wake of waiters) wake();
      }
    }
  })();
  done.catch(() => undefined);
  const until = (matches: (event: StreamedEvent) => boolean, timeoutMs = 10_000) =>
    new Promise<StreamedEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(matches);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(', ')}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { open, events, raw: () => raw, done, until, close: () => abort.abort() };
}
