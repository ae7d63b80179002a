// `/mcp` in 2026-07-28 (src/mcp/modern-http.ts): a plain tools/call is
// answered without the split SDK's handler (modern-tool-call.ts), and that
// answer is what the handler itself answers — status, content type and
// JSON-RPC body — for results, tool errors, refusals and failures, and for
// the requests the hot path leaves to the SDK. A new SDK that changes its
// answer fails here, not on a client.
import { describe, expect, it } from 'vitest';
import { standInBackend, standInSettings } from './stand-in-backend.js';
import { answerModernRequest, answerThroughSdk, type ModernAnswer } from '../../src/mcp/modern-http.js';

const backend = standInBackend;
const settings = standInSettings;
const REVISION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const call = (id: unknown, name: string, args: unknown = {}, meta: unknown = ENVELOPE) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: meta },
});
const headersFor = (name: string, extra: Record<string, string> = {}) => ({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': REVISION,
  'mcp-method': 'tools/call',
  'mcp-name': name,
  ...extra,
});

/** What a client sees: status, content type, the JSON body. */
async function seen({ status, headers, body }: ModernAnswer) {
  return { status, type: headers['content-type']?.split(';')[0] ?? null, body: typeof body === 'string' ? (JSON.parse(body) as unknown) : body };
}

async function both(headers: Record<string, string>, body: unknown) {
  const request = { method: 'POST', headers, body };
  const ours = await answerModernRequest(backend, settings, request, new AbortController().signal);
  const sdk = await answerThroughSdk(backend, settings, request, new AbortController().signal);
  return [await seen(ours), await seen(sdk)] as const;
}

describe('a plain 2026-07-28 tools/call', () => {
  it.each([
    ['a result', 'whoami', 1, { x: 1 }],
    ['a string id and no arguments', 'whoami', 'a-1', undefined],
    ['a refusal (isError)', 'refused', 2, {}],
    ['no such tool', 'nope', 3, {}],
    ['input that misses the schema', 'bad', 4, {}],
    ['a failure that is not a tool result', 'crash', 5, {}],
    ['a failure with its own code', 'coded', 6, {}],
  ])('answers %s as the SDK does', async (_what, name, id, args) => {
    const body = call(id, name, args);
    if (args === undefined) delete (body.params as { arguments?: unknown }).arguments;
    const [ours, sdk] = await both(headersFor(name), body);
    expect(ours).toEqual(sdk);
  });

  it.each([
    ['a capability the client declares', call(7, 'whoami', {}, { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } }), headersFor('whoami')],
    ['a Base64 name header', call(8, 'whoami'), headersFor('whoami', { 'mcp-name': '=?base64?d2hvYW1p?=' })],
    ['a name header that differs', call(9, 'whoami'), headersFor('other')],
    ['no protocol version header', call(10, 'whoami'), { ...headersFor('whoami'), 'mcp-protocol-version': '' }],
    ['arguments that are not an object', call(11, 'whoami', 'x'), headersFor('whoami')],
    ['an extra param', { ...call(12, 'whoami'), params: { ...call(12, 'whoami').params, extra: 1 } }, headersFor('whoami')],
  ])('leaves %s to the SDK, which answers it', async (_what, body, headers) => {
    const [ours, sdk] = await both(headers, body);
    expect(ours).toEqual(sdk);
  });
});
