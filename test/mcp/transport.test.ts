// `/mcp` (src/mcp/streamable-http.ts: its own stateless transport, and a lone
// tools/call answered without the SDK's server) answers what the SDK's
// WebStandardStreamableHTTP transport and server answer in the same mode
// (stateless, JSON responses): the same backend behind both, the same
// requests — good and bad headers, bodies, batches, notifications,
// initialize, tools/call with and without what the fast path leaves to the
// SDK — and the same status, content type and JSON-RPC body back. A new SDK
// that changes its rules fails here, not on a client.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standInBackend, standInSettings } from './stand-in-backend.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { answerMcpRequest, type McpAnswer } from '../../src/mcp/streamable-http.js';

const backend = standInBackend;
const settings = standInSettings;
const ours = (headers: Record<string, string>, body: unknown, method = 'POST') => answerMcpRequest(backend, settings, { method, headers, body });

/** The SDK's answer to the same POST, read the same way. */
async function sdkAnswer(headers: Record<string, string>, body: unknown): Promise<McpAnswer> {
  const server = buildMcpServer(backend, settings);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const response = await transport.handleRequest(new Request('http://aion.local/mcp', { method: 'POST', headers }), { parsedBody: body });
  const text = await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers), body: response.body === null ? null : text };
}

/** What a client sees: status, content type, the JSON body. */
const seen = ({ status, headers, body }: McpAnswer) => ({
  status,
  type: headers['content-type'] ?? null,
  body: body === null ? null : (JSON.parse(body) as unknown),
});

const call = (id: unknown, name: string, args: unknown = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const initialize = (id: unknown, protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const GOOD = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };

const message = fc.oneof(
  fc.record({
    jsonrpc: fc.constantFrom('2.0', '1.0'),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)),
    method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'resources/list', 'x'),
    params: fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          name: fc.oneof(fc.constantFrom('whoami', 'refused', 'nope', 'bad', 'crash', 'coded'), fc.jsonValue()),
          arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()), fc.jsonValue()),
          _meta: fc.oneof(fc.constant({ progressToken: 1 }), fc.jsonValue()),
          task: fc.oneof(fc.constant({ ttl: 1000 }), fc.jsonValue()),
        },
        { requiredKeys: ['name'] },
      ),
    ),
  }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.integer({ max: 3 }).map((id) => initialize(id)),
  fc.constant(initialized),
  fc.constant({ jsonrpc: '2.0', id: 3, result: {} }),
  fc.jsonValue(),
);
const body = fc.oneof(message, fc.array(message, { maxLength: 4 }), fc.constant(undefined));
const headers = fc.record(
  {
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', ''),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json-rpc'),
    'mcp-protocol-version': fc.constantFrom('2025-11-25', '2025-06-18', '2025-03-26', '1999-01-01', ''),
  },
  { requiredKeys: [] },
);

describe("/mcp's transport answers as the SDK's stateless JSON transport", () => {
  it('for a tool call, a batch, an initialize, notifications and the refusals', async () => {
    const cases: [Record<string, string>, unknown][] = [
      [GOOD, call(7, 'whoami')],
      [GOOD, call('a', 'refused')],
      [GOOD, call(1, 'nope')],
      [GOOD, call(1, 'bad')],
      [GOOD, call(1, 'crash')],
      [GOOD, call(1, 'coded')],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: [1] } }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 7 } }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call' }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', _meta: { progressToken: 'p' } } }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', task: { ttl: 60_000 } } }],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: { __proto__: 1, constructor: 2 } } }],
      [GOOD, JSON.parse('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "whoami", "arguments": {"__proto__": {"x": 1}}}}')],
      [GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' }, extra: true }],
      [GOOD, { jsonrpc: '2.0', method: 'tools/call', params: { name: 'whoami' } }],
      [GOOD, [call(1, 'whoami'), call(2, 'refused'), initialized]],
      [GOOD, [call(1, 'whoami'), call(1, 'whoami')]],
      [GOOD, initialize(0)],
      [GOOD, initialize(0, '1999-01-01')],
      [GOOD, [initialize(0), call(1, 'whoami')]],
      [GOOD, initialized],
      [GOOD, { jsonrpc: '2.0', id: 5, method: 'tools/list' }],
      [GOOD, { jsonrpc: '2.0', id: 5, method: 'ping' }],
      [GOOD, { jsonrpc: '2.0', id: 5, method: 'no/such/method' }],
      [GOOD, undefined],
      [GOOD, null],
      [GOOD, 'text'],
      [GOOD, Array.from({ length: 101 }, (_v, i) => call(i, 'whoami'))],
      [{ ...GOOD, accept: 'application/json' }, call(1, 'whoami')],
      [{ ...GOOD, 'content-type': 'text/plain' }, call(1, 'whoami')],
      [{ ...GOOD, 'mcp-protocol-version': '1999-01-01' }, call(1, 'whoami')],
      [{ ...GOOD, 'mcp-protocol-version': '1999-01-01' }, initialize(1)],
    ];
    for (const [sent, sentBody] of cases) {
      expect(seen(await ours(sent, sentBody)), JSON.stringify([sent, sentBody])).toEqual(seen(await sdkAnswer(sent, sentBody)));
    }
  });

  it('for any mix of headers and messages', async () => {
    await fc.assert(
      fc.asyncProperty(headers, body, async (sent, sentBody) => {
        expect(seen(await ours(sent, sentBody))).toEqual(seen(await sdkAnswer(sent, sentBody)));
      }),
      { numRuns: 500 },
    );
  });

  it('for any well-formed tool call, the path that skips the SDK server', async () => {
    const id = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }));
    const name = fc.constantFrom('whoami', 'refused', 'nope', 'bad', 'crash', 'coded', 'get_shared_context');
    const args = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue()), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(id, name, args, async (sentId, sentName, sentArgs) => {
        const sent = { jsonrpc: '2.0', id: sentId, method: 'tools/call', params: { name: sentName, ...(sentArgs === undefined ? {} : { arguments: sentArgs }) } };
        expect(seen(await ours(GOOD, sent))).toEqual(seen(await sdkAnswer(GOOD, sent)));
      }),
      { numRuns: 300 },
    );
  });

  it('answers GET and DELETE with 405 (no stream, no session), as /mcp always did', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await ours(GOOD, undefined, method);
      expect([answer.status, answer.headers.allow]).toEqual([405, 'POST']);
    }
  });
});
