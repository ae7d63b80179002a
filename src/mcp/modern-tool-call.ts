// The hot path of `/mcp` in 2026-07-28, as streamable-http.ts has one for
// 2025-11-25: a POST that is one plain tools/call, with exactly the standard
// headers and envelope a client sends, is answered with the server's own
// tools/call in the envelope the SDK's handler would put it in, skipping the
// web Request, the per-request server and their schema checks (~10 times the
// call itself, docs/decisions.md). Anything less plain is the SDK's.
// test/mcp/modern-transport.test.ts holds it to what the SDK answers.
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { ToolBackend } from './backend.js';
import { callTool, SERVER_INFO } from './server.js';
import { jsonRpcError, type McpRequest } from './streamable-http.js';

const REVISION = '2026-07-28';
const ENVELOPE_KEYS = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
]);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

interface ToolCall {
  id: string | number;
  name: string;
  input: Record<string, unknown>;
}

/** The JSON answer to a plain 2026-07-28 tools/call, or null: the request is the SDK's to answer. */
export async function answerPlainToolCall(backend: ToolBackend, request: McpRequest): Promise<string | null> {
  const call = plainToolCall(request);
  if (!call) return null;
  try {
    const result = await callTool(backend, call.name, call.input);
    return JSON.stringify({
      result: { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
      jsonrpc: '2.0',
      id: call.id,
    });
  } catch (error) {
    // What is not a tool's result (the store gone): as the SDK's handler answers a thrown error, as both SDKs do.
    return JSON.stringify({ jsonrpc: '2.0', id: call.id, error: jsonRpcError(error) });
  }
}

function plainToolCall({ method, headers, body }: McpRequest): ToolCall | null {
  if (method !== 'POST' || !isJsonContentType(headers['content-type'] ?? null)) return null;
  if (headers['mcp-protocol-version'] !== REVISION || headers['mcp-method'] !== 'tools/call') return null;
  if (!isObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || Object.keys(body).length !== 4) return null;
  const { id, params } = body;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isObject(params)) return null;
  const { name, arguments: input = {}, _meta: meta } = params;
  // A name the header must mirror as it is (no Base64 sentinel), arguments an object.
  if (typeof name !== 'string' || headers['mcp-name'] !== name || name.startsWith('=?') || !isObject(input)) return null;
  if (Object.keys(params).some((key) => !PARAM_KEYS.has(key)) || !plainEnvelope(meta)) return null;
  return { id, name, input };
}

/** The envelope a client sends: this revision, a client's name and version, no declared capabilities. */
function plainEnvelope(meta: unknown): boolean {
  if (!isObject(meta) || Object.keys(meta).some((key) => !ENVELOPE_KEYS.has(key))) return false;
  if (meta['io.modelcontextprotocol/protocolVersion'] !== REVISION) return false;
  const info = meta['io.modelcontextprotocol/clientInfo'];
  const infoPlain =
    info === undefined ||
    (isObject(info) && Object.keys(info).length === 2 && typeof info.name === 'string' && typeof info.version === 'string');
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  return infoPlain && (capabilities === undefined || (isObject(capabilities) && Object.keys(capabilities).length === 0));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
