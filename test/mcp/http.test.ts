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

interface ToolCallAnswer {
  id: number;
  result: { isError: boolean; structuredContent: Record<string, unknown> };
}

/** A raw tools/call POST, as any HTTP client could send it. */
function postToolCall(token: string | null, name: string, args: Record<string, unknown>, headers = {}) {
  const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } };
  return request(server.url, 'POST', '/mcp', { body, token, headers: { ...MCP_HEADERS, ...headers } });
}

describe('/mcp', () => {
  it('refuses a missing, unknown or non-operator token with 401 bad token', async () => {
    const minted = await restClient(server.url, server.demoTokens.ada ?? '').post('/api/v1/tokens', {
      name: 'svc',
      service: { project: 'shop', environment: 'staging' },
    });
    const serviceToken = (minted.body as { token: string }).token;
    for (const token of [null, `aion_${'B'.repeat(43)}`, serviceToken]) {
      const answer = await postToolCall(token, 'whoami', {});
      expect([answer.status, answer.body]).toEqual([401, { error: 'bad token' }]);
    }
  });

  it('answers a tools/call on its own (stateless) with JSON', async () => {
    const answer = await postToolCall(server.demoTokens.olive ?? null, 'whoami', {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    const { id, result } = answer.body as ToolCallAnswer;
    expect([id, result.isError, result.structuredContent.operator]).toEqual([7, false, 'olive']);
  });

  it('answers GET and DELETE with 405: no event stream, no session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await request(server.url, method, '/mcp', {
        headers: MCP_HEADERS,
        token: server.demoTokens.ada ?? null,
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
  });

  it('reads X-Aion-Project and X-Aion-Environment per request', async () => {
    const scope = { 'x-aion-project': 'shop', 'x-aion-environment': 'production' };
    const answer = await postToolCall(server.demoTokens.vic ?? null, 'list_secrets', {}, scope);
    const { result } = answer.body as ToolCallAnswer;
    expect(result.isError).toBe(false);
    expect([result.structuredContent.project, result.structuredContent.environment]).toEqual(['shop', 'production']);
  });
});
