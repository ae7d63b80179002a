// The console's Server-Sent Events reader (web/src/api/events:
// openEventStream over eventsource-parser), against a real server on the
// loopback: the tab's token as a bearer header (never in the URL), the last
// event id sent back on a reconnect, each event's id, name and data however
// the bytes are cut, comments and blocks without data skipped, a refusal in
// the server's words.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../web/src/api/client.js';
import { openEventStream, type ServerEvent } from '../../web/src/api/events.js';

/** What each path answers; the request's headers are kept for the test to read. */
const routes = new Map<string, (response: ServerResponse) => Promise<void> | void>();
let heard: { url: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    heard.push({ url: request.url ?? '', headers: request.headers });
    const route = routes.get(request.url ?? '');
    if (route) void route(response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});

// The tab's storage, with a signed-in token: the console reads it for every request.
beforeEach(() => {
  heard = [];
  const storage = new Map([['aion.token', 'tab-token']]);
  vi.stubGlobal('sessionStorage', { getItem: (key: string) => storage.get(key) ?? null });
});
afterEach(() => {
  vi.unstubAllGlobals();
  routes.clear();
});

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

/** An event stream that writes each chunk in turn, a pause between them (so they arrive apart), then ends. */
function streams(path: string, chunks: (string | Buffer)[]): void {
  routes.set(path, async (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) {
      response.write(chunk);
      await pause(15);
    }
    response.end();
  });
}

/** Reads the whole stream at `path`: the events it delivered, once it closed. */
async function readAll(path: string, lastEventId: string | null = null): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  const { closed } = await openEventStream(`${origin}${path}`, (event) => events.push(event), new AbortController().signal, lastEventId);
  await closed;
  return events;
}

describe('openEventStream', () => {
  it("sends the tab's token as a bearer header, asks for an event stream, and sends Last-Event-ID only when given", async () => {
    streams('/events', [': nothing yet\n\n']);
    await readAll('/events');
    await readAll('/events', 'turn-1:7');
    expect(heard.map((h) => h.url)).toEqual(['/events', '/events']);
    expect(heard[0]?.headers).toMatchObject({ authorization: 'Bearer tab-token', accept: 'text/event-stream', 'x-aion-via': 'console' });
    expect(heard[0]?.headers['last-event-id']).toBeUndefined();
    expect(heard[1]?.headers['last-event-id']).toBe('turn-1:7');
  });

  it('gives each event its id, name and data, however the bytes are cut', async () => {
    const quote = Buffer.from('data: {"text":"“ok”"}\n\n');
    // Cut inside a line, inside a field name, between CR and LF, and inside the bytes of “.
    const cut = quote.indexOf(0xe2) + 1;
    streams('/events', [
      'id: t1:0\nevent: started\ndata: {"type":"started"}\n\n',
      'id: t1:1\nda',
      'ta: {"type":"text",\r',
      '\ndata: "delta":"two lines"}\r\n\r\n',
      ': keep-alive\n\n',
      'event: ping\nid: t1:2\n\n',
      quote.subarray(0, cut),
      quote.subarray(cut),
      'id: t1:3\nevent: ended\ndata:{"type":"ended"}\n\n',
    ]);
    expect(await readAll('/events')).toEqual([
      { id: 't1:0', event: 'started', data: '{"type":"started"}' },
      { id: 't1:1', event: 'message', data: '{"type":"text",\n"delta":"two lines"}' },
      { id: null, event: 'message', data: '{"text":"“ok”"}' },
      { id: 't1:3', event: 'ended', data: '{"type":"ended"}' },
    ]);
  });

  it('leaves out an event the stream ended in the middle of', async () => {
    streams('/events', ['event: change\ndata: {"what":"documents"}\n\n', 'event: change\ndata: {"what":"proj']);
    expect(await readAll('/events')).toEqual([{ id: null, event: 'change', data: '{"what":"documents"}' }]);
  });

  it('settles `closed` when the caller aborts a stream the server keeps open', async () => {
    routes.set('/open', (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: hello\ndata: 1\n\n');
    });
    const events: ServerEvent[] = [];
    const stop = new AbortController();
    const { closed } = await openEventStream(`${origin}/open`, (event) => events.push(event), stop.signal);
    await vi.waitFor(() => expect(events).toEqual([{ id: null, event: 'hello', data: '1' }]));
    stop.abort();
    await expect(closed).resolves.toBeUndefined();
  });

  it("rejects a refusal with the server's status and sentence", async () => {
    routes.set('/gone', (response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no such thread' }));
    });
    const refused = openEventStream(`${origin}/gone`, () => undefined, new AbortController().signal);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 404, message: 'no such thread' });
  });
});
