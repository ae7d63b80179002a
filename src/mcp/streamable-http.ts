// MCP over Streamable HTTP, stateless: each POST is answered on its own with
// plain JSON (no SSE stream) and forgotten. Nothing ties a client to one
// server process, and a request's X-Aion-* headers are the whole of its
// connection's settings.
//
// DESIGN.md §11 holds a `/mcp` tools/call to 1 ms over the same call through
// REST, and the SDK's WebStandardStreamableHTTP transport with a server built
// per request cost several times the tool call itself (a web Request and
// Response, sessions, streams and resumption none of which a stateless JSON
// server uses, and a schema check per message at every layer). So:
// - the HTTP rules are this file's: what the SDK's transport answers in this
//   mode, rule for rule, with the SDK's own schemas and limits;
// - a POST that is one well-formed tools/call (the hot path) is answered with
//   the server's own tools/call (server.ts `callTool`) in the envelope the
//   SDK's server would put it in;
// - everything else (initialize, tools/list, ping, notifications, batches,
//   a call with _meta or a task, a malformed one) goes to the SDK's server,
//   built for the request, through a transport of one POST.
// test/mcp/transport.test.ts holds all of it to what the SDK itself answers.
import type { IncomingHttpHeaders } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolBackend } from './backend.js';
import { buildMcpServer, callTool } from './server.js';
import type { ConnectionSettings } from './settings.js';

/** The HTTP answer: status, headers and body (none for a 202). */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** One HTTP request to the MCP endpoint: its method, headers and body as parsed (undefined: none). */
export interface McpRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Answers one HTTP request to the MCP endpoint, as the server over `backend` with these settings. */
export async function answerMcpRequest(
  backend: ToolBackend,
  settings: Pick<ConnectionSettings, 'readOnly' | 'only'>,
  request: McpRequest,
): Promise<McpAnswer> {
  // A stateless server has nothing to push on a GET stream and no session to
  // DELETE; the spec's answer to both is 405.
  if (request.method !== 'POST') return methodNotAllowed();
  const checked = readPost(request);
  if ('status' in checked) return checked;
  const call = loneToolCall(checked.messages);
  if (call) return answered(await toolCallResponse(backend, call));
  const server = buildMcpServer(backend, settings);
  const transport = new PostTransport();
  await server.connect(transport);
  // Never closed: every request of the POST is answered when this returns, so
  // nothing of the server still runs, and both go with the request. Closing
  // would only abort what already ended (an AbortError and a "connection
  // closed" error made per request, for nobody).
  return transport.answer(checked.messages, request.headers);
}

/** The POST's JSON-RPC messages, or the SDK transport's refusal of it, checked in the order it checks. */
function readPost({ headers, body }: McpRequest): { messages: JSONRPCMessage[] } | McpAnswer {
  // The client must accept both JSON and an event stream, though this server only ever answers JSON.
  const accept = single(headers.accept);
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(single(headers['content-type']) ?? null)) {
    return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  if (body === undefined) return refusal(400, -32700, 'Parse error: Invalid JSON');
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  let messages: JSONRPCMessage[];
  try {
    messages = (Array.isArray(body) ? body : [body]).map((message) => JSONRPCMessageSchema.parse(message));
  } catch {
    return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  // The method first: a failing schema check costs more than the rest of the request's parsing.
  if (messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message))) {
    if (messages.length > 1) return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  } else {
    // After initialization a client names the protocol version it negotiated; one this server does not speak is refused.
    const version = single(headers['mcp-protocol-version']);
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      const sentence = `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
      return refusal(400, -32000, sentence);
    }
  }
  return { messages };
}

/** A lone tools/call that the SDK's server takes as it is (its schema, no _meta, no task): its id, name and arguments. */
interface ToolCall {
  id: RequestId;
  name: string;
  input: Record<string, unknown>;
}

function loneToolCall(messages: JSONRPCMessage[]): ToolCall | null {
  const [message] = messages;
  if (messages.length !== 1 || !message || !('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const { params } = message;
  if (!params || Object.keys(params).some((key) => key !== 'name' && key !== 'arguments')) return null;
  const parsed = safeParse(CallToolRequestSchema, message);
  if (!parsed.success) return null;
  return { id: message.id, name: parsed.data.params.name, input: parsed.data.params.arguments ?? {} };
}

/** The JSON-RPC response the SDK's server makes of a tools/call: the result it checks, or the error it maps. */
async function toolCallResponse(backend: ToolBackend, { id, name, input }: ToolCall): Promise<JSONRPCMessage> {
  let result: unknown;
  try {
    result = await callTool(backend, name, input);
  } catch (error) {
    return { jsonrpc: '2.0', id, error: jsonRpcError(error) };
  }
  // As the SDK's server checks it (what McpServer answers always passes).
  const checked = safeParse(CallToolResultSchema, result);
  if (!checked.success) {
    const why = checked.error instanceof Error ? checked.error.message : String(checked.error);
    return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid tools/call result: ${why}` } };
  }
  return { jsonrpc: '2.0', id, result: checked.data };
}

/** A thrown thing as the SDK's Protocol answers it: its own code if it has one, else an internal error, with its message. */
export function jsonRpcError(error: unknown): { code: number; message: string; data?: unknown } {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof code === 'number' && Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
    message: typeof message === 'string' ? message : 'Internal error',
    ...(data !== undefined ? { data } : {}),
  };
}

/**
 * The SDK server's side of one POST: hands it the messages, collects its
 * responses, and answers once every request has one — the response, or all
 * of them in a list for a batch; a 202 with no body when the POST held no
 * request. What the server would send the client besides (notifications)
 * has nowhere to go without a stream, and is dropped, as the SDK drops it.
 */
class PostTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly responses = new Map<RequestId, JSONRPCMessage | null>();
  private done: ((answer: McpAnswer) => void) | null = null;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  answer(messages: JSONRPCMessage[], headers: IncomingHttpHeaders): Promise<McpAnswer> | McpAnswer {
    const extra = { requestInfo: { headers } };
    const requests = messages.filter((message): message is JSONRPCRequest => 'id' in message && 'method' in message && isJSONRPCRequest(message));
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, extra);
      return { status: 202, headers: {}, body: null };
    }
    for (const request of requests) this.responses.set(request.id, null);
    return new Promise((resolve) => {
      this.done = resolve;
      for (const message of messages) this.onmessage?.(message, extra);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // What the server sends is its own making, well formed: a response is what holds a result or an error.
    if (!('result' in message) && !('error' in message)) return;
    const { id } = message;
    if (id === undefined || !this.responses.has(id)) throw new Error(`no request of this POST has the ID ${String(id)}`);
    this.responses.set(id, message);
    const all = [...this.responses.values()];
    if (!this.done || all.includes(null)) return;
    this.done(answered(all.length === 1 ? all[0] : all));
    this.done = null;
  }
}

function answered(response: unknown): McpAnswer {
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(response) };
}

/** A refusal as the SDK's transport words it: a JSON-RPC error without an id. */
function refusal(status: number, code: number, message: string, headers: Record<string, string> = {}): McpAnswer {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }) };
}

function methodNotAllowed(): McpAnswer {
  // -32000: the code the SDK's transports give their own refusals.
  return refusal(405, -32000, 'this MCP endpoint is stateless: POST JSON-RPC messages to it', { allow: 'POST' });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
