// The conformance suite speaks HTTP only; this relay puts `ops mcp` (stdio)
// under it. An HTTP server on loopback passes each JSON-RPC message to a
// long-lived `ops mcp` process and answers with that process's reply as JSON:
// - a 2025-11-25 `initialize` starts a process of its own, whose session id
//   (Mcp-Session-Id, made here) carries the session's later requests to it,
//   and a DELETE ends it: one stdio connection per 2025 session, as a host
//   keeps one. The next process is started ahead, as a host starts its server
//   before it speaks: the suite gives some initializes 5 s, and a process
//   starting on a loaded machine took more;
// - every 2026-07-28 request (stateless) goes to one shared process, as a host
//   keeps one stdio connection for all its calls. The relay opens it as a
//   2026-07-28 host does (server/discover, then a request in the envelope):
//   the split SDK reads a stdio connection's revision from how it opens, and
//   the suite's first request may be one made malformed on purpose.
// Which revision a request speaks is decided as `/mcp` decides it (the split
// SDK's classifier, src/mcp/modern-http.ts). Request ids are renumbered per
// process, since the suite's requests reuse ids across sessions and at once.
// The relay adds no MCP rule of its own: what HTTP alone carries (headers,
// status codes, Origin) is not stdio's, and the README lists those checks.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { isModernRequest } from '../../../src/mcp/modern-http.js';
import { OPS_BIN } from '../../helpers/paths.js';

type JsonRpcId = string | number;

/** The per-request envelope of a 2026-07-28 request, as the relay's own opening sends it. */
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'aion-stdio-relay', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** A 2026-07-28 subscriptions/listen in flight: its notifications go to the HTTP answer as events. */
interface Subscription {
  id: JsonRpcId;
  res: http.ServerResponse;
}

/** One `ops mcp` process: a message in, its answer out, with ids of the relay's own. */
class StdioConnection {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { id: JsonRpcId; resolve: (answer: JsonRpcMessage) => void }>();
  private readonly subscriptions = new Map<number, Subscription>();
  private nextId = 1;
  private readonly gone: Promise<void>;

  constructor(url: string, token: string, private readonly log: (line: string) => void) {
    this.child = spawn(process.execPath, [OPS_BIN, 'mcp', '--url', url, '--token', token], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.received(line));
    // Its stderr is for a person; the relay's own output keeps it out of the suite's.
    this.child.stderr.resume();
    this.gone = new Promise((resolve) => this.child.once('exit', () => resolve()));
    void this.gone.then(() => {
      for (const [, pending] of this.waiting) pending.resolve({ jsonrpc: '2.0', id: pending.id, error: { code: -32603, message: 'ops mcp exited' } });
      this.waiting.clear();
    });
  }

  /** Sends a request and resolves with its answer, under the sender's id. */
  request(message: JsonRpcMessage & { id: JsonRpcId }): Promise<JsonRpcMessage> {
    const ours = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(ours, { id: message.id, resolve });
      this.write({ ...message, id: ours });
    });
  }

  /**
   * A subscriptions/listen: stdio carries its acknowledgement and its
   * notifications as notifications stamped with the request's id, and over
   * HTTP they are the events of the request's answer. The client going away
   * cancels it, as closing the stream does on `/mcp`.
   */
  listen(message: JsonRpcMessage & { id: JsonRpcId }, res: http.ServerResponse): void {
    const ours = this.nextId++;
    this.subscriptions.set(ours, { id: message.id, res });
    res.once('close', () => {
      if (!this.subscriptions.delete(ours)) return;
      this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ours } });
    });
    this.write({ ...message, id: ours });
  }

  /** A notification, or a client's answer to a server request: nothing comes back. */
  notify(message: JsonRpcMessage): void {
    this.write(message);
  }

  /** Closes stdin, the way a host ends a stdio connection, and waits for the exit. */
  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 3000);
    await this.gone;
    clearTimeout(timer);
  }

  private write(message: JsonRpcMessage): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private received(line: string): void {
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line) as JsonRpcMessage;
    } catch {
      this.log(`stdio relay: ops mcp wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (message.method !== undefined) return this.toSubscription(message);
    if (typeof message.id !== 'number') return;
    const subscription = this.subscriptions.get(message.id);
    if (subscription) {
      // The listen's own answer (a refusal, or its end): the last word of its HTTP answer.
      this.subscriptions.delete(message.id);
      const answer = JSON.stringify({ ...message, id: subscription.id });
      if (subscription.res.headersSent) subscription.res.end(`event: message\ndata: ${answer}\n\n`);
      else subscription.res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      return;
    }
    const pending = this.waiting.get(message.id);
    if (!pending) return;
    this.waiting.delete(message.id);
    pending.resolve({ ...message, id: pending.id });
  }

  /** A server notification: to the subscription it is stamped with (Aion sends no other the suite waits for). */
  private toSubscription(message: JsonRpcMessage): void {
    const params = (message.params ?? {}) as { _meta?: Record<string, unknown> };
    const stamp = params._meta?.[SUBSCRIPTION_ID_META_KEY];
    const subscription = typeof stamp === 'number' ? this.subscriptions.get(stamp) : undefined;
    if (!subscription) return;
    const event = { ...message, params: { ...params, _meta: { ...params._meta, [SUBSCRIPTION_ID_META_KEY]: subscription.id } } };
    if (!subscription.res.headersSent) subscription.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    subscription.res.write(`event: message\ndata: ${JSON.stringify(event)}\n\n`);
  }
}

export interface StdioRelay {
  /** The relay's MCP endpoint. */
  url: string;
  close(): Promise<void>;
}

/** Starts the relay in front of `ops mcp --url SERVERURL --token TOKEN`. */
export async function startStdioRelay(serverUrl: string, token: string, log: (line: string) => void): Promise<StdioRelay> {
  const sessions = new Map<string, StdioConnection>();
  let stateless: Promise<StdioConnection> | undefined;
  const open = () => new StdioConnection(serverUrl, token, log);
  let spare = open();
  /** The started process waiting for the next session, and another started in its place. */
  const take = () => {
    const taken = spare;
    spare = open();
    return taken;
  };

  /** The shared 2026-07-28 connection, opened in that revision before anything of the suite's reaches it. */
  async function openModern(): Promise<StdioConnection> {
    const connection = open();
    const params = { _meta: MODERN_ENVELOPE };
    for (const method of ['server/discover', 'tools/list']) {
      const answer = await connection.request({ jsonrpc: '2.0', id: 0, method, params });
      if (answer.error !== undefined) throw new Error(`ops mcp refused the 2026-07-28 opening ${method}: ${JSON.stringify(answer.error)}`);
    }
    return connection;
  }

  /** The process a message goes to, and the session id an initialize made (to answer with). */
  async function route(req: http.IncomingMessage, body: unknown): Promise<{ connection: StdioConnection; session?: string } | { status: number; text: string }> {
    if (isModernRequest({ method: 'POST', headers: req.headers, body })) return { connection: await (stateless ??= openModern()) };
    const message = body as JsonRpcMessage;
    if (message.method === 'initialize') {
      const session = randomUUID();
      const connection = take();
      sessions.set(session, connection);
      return { connection, session };
    }
    const named = req.headers['mcp-session-id'];
    if (typeof named !== 'string') return { status: 400, text: 'Bad Request: Mcp-Session-Id header is required' };
    const connection = sessions.get(named);
    return connection ? { connection } : { status: 404, text: 'Session not found' };
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'DELETE') {
      const named = req.headers['mcp-session-id'];
      const connection = typeof named === 'string' ? sessions.get(named) : undefined;
      if (!connection || typeof named !== 'string') return void res.writeHead(404).end();
      sessions.delete(named);
      await connection.close();
      return void res.writeHead(200).end();
    }
    // Nothing streams from a stdio server to an HTTP client that was not asked for: as `/mcp`, GET is 405.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: one JSON-RPC message per POST' } }));
    }
    const target = await route(req, body);
    if ('status' in target) return void res.writeHead(target.status, { 'content-type': 'text/plain' }).end(target.text);
    const message = body as JsonRpcMessage;
    if (message.id === undefined || message.id === null || message.method === undefined) {
      target.connection.notify(message);
      return void res.writeHead(202).end();
    }
    if (message.method === 'subscriptions/listen') return target.connection.listen({ ...message, id: message.id }, res);
    const reply = await target.connection.request({ ...message, id: message.id });
    res.writeHead(200, { 'content-type': 'application/json', ...(target.session ? { 'mcp-session-id': target.session } : {}) });
    res.end(JSON.stringify(reply));
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      log(`stdio relay: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const modern = stateless ? [await stateless] : [];
      await Promise.all([...sessions.values(), ...modern, spare].map((connection) => connection.close()));
    },
  };
}
