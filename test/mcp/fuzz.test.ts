// Bad input on `/mcp` (DESIGN.md §10 invariant 8, in MCP's terms): random
// bodies and JSON-RPC messages, with and without the headers MCP needs, get
// a 4xx with a JSON-RPC error that says why, or a JSON-RPC answer; never a
// 500. A body the server cannot take as JSON at all is refused before MCP
// sees it, as on every route, with {"error": sentence}. Sent read-only, none
// of them changes anything.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as restClient, request, type Answer } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

const TOOLS = ['create_environment', 'set_member_role', 'remove_member', 'list_environments', 'list_deployments', 'whoami', 'no_such_tool'];
const METHODS = ['tools/call', 'tools/list', 'initialize', 'ping', 'notifications/initialized', 'resources/list', 'x'];

const message = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0'),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
    method: fc.constantFrom(...METHODS),
    params: fc.oneof(
      fc.jsonValue(),
      fc.record({
        name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 20 })),
        arguments: fc.dictionary(
          fc.constantFrom('project', 'name', 'operator', 'role', 'protected', 'limit'),
          fc.oneof(fc.jsonValue(), fc.constantFrom('sh\u0000op', 'half \ud800', 2 ** 31, -(2 ** 31) - 1)),
        ),
      }),
    ),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

const headers = fc.record(
  {
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/html'),
    'mcp-protocol-version': fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01'),
  },
  { requiredKeys: [] },
);

/** A JSON-RPC error with a sentence, or JSON-RPC answers, or nothing (202). */
function expectJsonRpc(answer: Answer) {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (answer.status === 202) return expect(answer.text).toBe('');
  if (answer.status === 400 && !isJsonRpc(answer.body)) {
    return expect(answer.body).toEqual({ error: expect.stringMatching(/^\S.{5,}/) });
  }
  const answers = Array.isArray(answer.body) ? answer.body : [answer.body];
  for (const one of answers as Record<string, unknown>[]) {
    expect(one.jsonrpc, answer.text).toBe('2.0');
    if (answer.status >= 400 || 'error' in one) {
      // The SDK's own messages may span lines (a schema mismatch lists its issues).
      const sentence = expect.stringMatching(/^\S[\s\S]{5,}/);
      expect(one.error, answer.text).toMatchObject({ code: expect.any(Number), message: sentence });
    } else {
      expect(one.result, answer.text).toBeTypeOf('object');
    }
    // A tool that failed in a way the executor did not expect is a 500 in disguise.
    expect(JSON.stringify(one)).not.toMatch(/failed unexpectedly/);
  }
}

function isJsonRpc(body: unknown): boolean {
  return Array.isArray(body) || (typeof body === 'object' && body !== null && 'jsonrpc' in body);
}

describe('bad input on /mcp', () => {
  it('never answers 500, and a read-only connection changes nothing', async () => {
    const token = server.demoTokens.ada ?? null;
    const property = fc.asyncProperty(
      fc.oneof(message, fc.array(message, { minLength: 1, maxLength: 3 }), fc.jsonValue()),
      headers,
      async (body, sent) => {
        const answer = await request(server.url, 'POST', '/mcp', {
          token,
          body,
          headers: { ...sent, 'x-aion-read-only': '1' },
        });
        expectJsonRpc(answer);
      },
    );
    await fc.assert(property, { numRuns: 300 });

    const ada = restClient(server.url, server.demoTokens.ada ?? '');
    const members = (await ada.get('/api/v1/projects/shop/members')).body as unknown[];
    expect(members).toHaveLength(4);
    const environments = (await ada.get('/api/v1/projects/shop')).body as { environments: unknown[] };
    expect(environments.environments).toHaveLength(2);
  });
});
