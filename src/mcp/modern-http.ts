// MCP 2026-07-28 on `/mcp`, beside 2025-11-25 (streamable-http.ts): stateless
// requests that each carry their protocol version in a `_meta` envelope, no
// initialize and no session, `server/discover`, `resultType` on every result,
// the Mcp-Method/Mcp-Name headers checked against the body, cache hints on
// list results. The split SDK (@modelcontextprotocol/server 2.x) serves it:
// its era classifier decides which revision a POST speaks, and its strict
// modern handler (legacy: 'reject') runs the whole validation ladder, so what
// the spec says of this revision is the SDK's, not ours; a 2025-era POST
// never reaches it and keeps today's path (docs/decisions.md, "MCP 2026-07-28").
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { classifyInboundRequest, createMcpHandler } from '@modelcontextprotocol/server';
import type { ToolBackend } from './backend.js';
import { buildModernServer, type Settings } from './modern-server.js';
import { answerPlainToolCall } from './modern-tool-call.js';
import type { McpRequest } from './streamable-http.js';

/** The HTTP answer: status, headers and body (none for a 202; a stream when the answer is sent as events). */
export interface ModernAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Readable | null;
}

interface Connection {
  backend: ToolBackend;
  settings: Settings;
}

/** The connection of each modern request in flight, for the handler's server factory (which is given the request only). */
const connections = new WeakMap<Request, Connection>();

const handler = createMcpHandler(
  ({ requestInfo }) => {
    const connection = requestInfo && connections.get(requestInfo);
    if (!connection) throw new Error('an MCP request reached the 2026-07-28 handler without its connection');
    return buildModernServer(connection.backend, connection.settings);
  },
  { legacy: 'reject' },
);

/** Whether a request is one the 2026-07-28 path answers (it claims that era, or fails the era's checks), by the SDK's own classifier. */
export function isModernRequest({ method, headers, body }: McpRequest): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: method,
    protocolVersionHeader: single(headers['mcp-protocol-version']),
    mcpMethodHeader: single(headers['mcp-method']),
    mcpNameHeader: single(headers['mcp-name']),
    body,
  });
  return outcome.kind !== 'legacy';
}

/** Answers one 2026-07-28 request over `backend`; `signal` ends it when the client goes away. */
export async function answerModernRequest(
  backend: ToolBackend,
  settings: Settings,
  request: McpRequest,
  signal: AbortSignal,
): Promise<ModernAnswer> {
  const plain = await answerPlainToolCall(backend, request);
  if (plain !== null) return { status: 200, headers: { 'content-type': 'application/json' }, body: plain };
  return answerThroughSdk(backend, settings, request, signal);
}

/** The SDK handler's answer to a 2026-07-28 request (what the hot path is held to). */
export async function answerThroughSdk(
  backend: ToolBackend,
  settings: Settings,
  request: McpRequest,
  signal: AbortSignal,
): Promise<ModernAnswer> {
  // The handler is web-standard; the URL only names the endpoint (Host and Origin were checked before).
  const webRequest = new Request('http://localhost/mcp', { method: request.method, headers: webHeaders(request.headers), signal });
  connections.set(webRequest, { backend, settings });
  const response = await handler.fetch(webRequest, { parsedBody: request.body });
  const headers = Object.fromEntries(response.headers);
  // An answer upgraded to an event stream (what a handler sends before its result) is passed on as it comes.
  if (response.body && headers['content-type']?.startsWith('text/event-stream')) {
    return { status: response.status, headers, body: Readable.fromWeb(response.body) };
  }
  const text = await response.text();
  return { status: response.status, headers, body: text === '' ? null : text };
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2 pseudo-headers (:path) are not headers a web Request can carry.
    if (value === undefined || name.startsWith(':')) continue;
    web.set(name, single(value) ?? '');
  }
  return web;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
