// Server-Sent Events read with fetch() and a stream parser: EventSource
// cannot send the Authorization header, and the token never goes in a URL.
import { ApiError, requestHeaders } from './client';

export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * Opens the stream and resolves once the server has answered (so nothing
 * emitted after that is missed); `closed` settles when the stream ends.
 */
export async function openEventStream(
  path: string,
  onEvent: (event: ServerEvent) => void,
  signal: AbortSignal,
): Promise<{ closed: Promise<void> }> {
  const response = await fetch(path, { headers: requestHeaders('text/event-stream'), signal });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    const sentence = (body as { error?: unknown } | null)?.error;
    throw new ApiError(response.status, typeof sentence === 'string' ? sentence : `the server answered ${response.status}`, body);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  return { closed: readEvents(reader, onEvent).catch(() => undefined) };
}

async function readEvents(reader: ReadableStreamDefaultReader<string>, onEvent: (event: ServerEvent) => void): Promise<void> {
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value.replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const parsed = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (parsed) onEvent(parsed);
    }
  }
}

/** One event block: `event:` names it, `data:` lines join with newlines; comments (`:`) are keep-alives. */
function parseEvent(block: string): ServerEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : null;
}
