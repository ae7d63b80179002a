// What only `/mcp` does: bearer authentication, stateless POSTs answered with
// JSON (no SSE stream, no session), the X-Aion-* headers read per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as restClient, request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

function toolCall(name: string, args: Record<string, unknown>, id = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

describe('/mcp', () => {
  it('refuses a missing, unknown or non-operator token with 401 bad token', async () => {
    const body = toolCall('whoami', {});
    const missing = await request(server.url, 'POST', '/mcp', { body, headers: MCP_HEADERS });
    expect([missing.status, missing.body]).toEqual([401, { error: 'bad token' }]);
    const unknown = await request(server.url, 'POST', '/mcp', { body, headers: MCP_HEADERS, token: `aion_${'B'.repeat(43)}` });
    expect([unknown.status, unknown.body]).toEqual([401, { error: 'bad token' }]);

    const minted = await restClient(server.url, server.demoTokens.ada ?? '').post('/api/v1/tokens', {
      name: 'svc',
      service: { project: 'shop', environment: 'staging' },
    });
    const service = (minted.body as { token: string }).token;
    const asService = await request(server.url, 'POST', '/mcp', { body, headers: MCP_HEADERS, token: service });
    expect([asService.status, asService.body]).toEqual([401, { error: 'bad token' }]);
  });

  it('answers a tools/call on its own (stateless) with JSON', async () => {
    const answer = await request(server.url, 'POST', '/mcp', {
      body: toolCall('whoami', {}, 7),
      headers: MCP_HEADERS,
      token: server.demoTokens.olive ?? null,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    const { id, result } = answer.body as { id: number; result: { isError: boolean; structuredContent: { operator: string } } };
    expect([id, result.isError, result.structuredContent.operator]).toEqual([7, false, 'olive']);
  });

  it('answers GET and DELETE with 405: no event stream, no session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await request(server.url, method, '/mcp', { headers: MCP_HEADERS, token: server.demoTokens.ada ?? null });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
  });

  it('reads X-Aion-Project and X-Aion-Environment per request', async () => {
    const answer = await request(server.url, 'POST', '/mcp', {
      body: toolCall('list_secrets', {}),
      headers: { ...MCP_HEADERS, 'x-aion-project': 'shop', 'x-aion-environment': 'production' },
      token: server.demoTokens.vic ?? null,
    });
    const { result } = answer.body as { result: { isError: boolean; structuredContent: Record<string, unknown> } };
    expect(result.isError).toBe(false);
    expect([result.structuredContent.project, result.structuredContent.environment]).toEqual(['shop', 'production']);
  });
});
