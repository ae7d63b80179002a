// A stand-in for Anthropic's Messages API on 127.0.0.1, speaking its wire
// format, so the provider is tested through the real SDK client without the network.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** `hang` never answers, as a provider that stopped responding. */
export type Responder = (request: RecordedRequest, attempt: number) => Reply | 'hang';

export interface MessagesApi {
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startMessagesApi(respond: Responder): Promise<MessagesApi> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
      requests.push(recorded);
      const reply = respond(recorded, requests.length);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_test_${requests.length}`, ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A finished message as the API sends it. */
export function message(content: unknown[], stopReason: string): Reply {
  return {
    status: 200,
    body: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      content,
      model: 'claude-test',
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

/** An error as the API sends it: `{"type": "error", "error": {type, message}}`. */
export function apiError(status: number, type: string, text: string, headers?: Record<string, string>): Reply {
  return { status, body: { type: 'error', error: { type, message: text } }, headers };
}
