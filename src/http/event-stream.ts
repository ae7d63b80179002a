// A Server-Sent Events response: headers, a keep-alive comment for proxies,
// events with ids, and a signal that aborts when the client goes.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

export interface EventStream {
  send(event: { id?: string; type: string; data: unknown }): void;
  /** Aborts when the client closes the stream, or the server closes. */
  readonly closed: AbortSignal;
  end(): void;
}

/** Takes the response over from Fastify and opens the stream, with `greeting` as its first comment; it ends when the server closes. */
export function openEventStream(request: FastifyRequest, reply: FastifyReply, greeting: string, serverClosing: AbortSignal): EventStream {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // HTTP/2 forbids connection headers (its streams are multiplexed on one connection anyway).
    ...(request.raw.httpVersionMajor < 2 ? { connection: 'keep-alive' } : {}),
    'x-request-id': request.id,
  });
  out.write(`: ${greeting}\n\n`);
  const keepalive = setInterval(() => out.write(': keepalive\n\n'), KEEPALIVE_MS);
  const closed = new AbortController();
  request.raw.once('close', () => closed.abort());
  return {
    send: ({ id, type, data }) => out.write(`${id ? `id: ${id}\n` : ''}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`),
    closed: AbortSignal.any([closed.signal, serverClosing]),
    end: () => {
      clearInterval(keepalive);
      out.end();
    },
  };
}
