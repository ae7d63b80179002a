// Server-Sent Events read with fetch() and eventsource-parser: EventSource
// cannot send the Authorization header, and the token never goes in a URL.
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { ApiError, requestHeaders } from './client';
import { watched } from './connection';

export interface ServerEvent {
  /** The event's `id:`, which a reconnect sends back as Last-Event-ID; null when it has none. */
  id: string | null;
  event: string;
  data: string;
}

/**
 * Opens the stream and resolves once the server has answered (so nothing
 * emitted after that is missed); `closed` settles when the stream ends.
 * `lastEventId` asks the server to go on after that event.
 */
export async function openEventStream(
  path: string,
  onEvent: (event: ServerEvent) => void,
  signal: AbortSignal,
  lastEventId: string | null = null,
): Promise<{ closed: Promise<void> }> {
  const headers = requestHeaders('text/event-stream');
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const response = await watched(fetch(path, { headers, signal }), signal);
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    const sentence = (body as { error?: unknown } | null)?.error;
    throw new ApiError(response.status, typeof sentence === 'string' ? sentence : `the server answered ${response.status}`, body);
  }
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  return { closed: deliver(events.getReader(), onEvent).catch(() => undefined) };
}

async function deliver(reader: ReadableStreamDefaultReader<EventSourceMessage>, onEvent: (event: ServerEvent) => void): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    // As EventSource names them: an event without `event:` is a `message`.
    onEvent({ id: value.id ?? null, event: value.event ?? 'message', data: value.data });
  }
}
