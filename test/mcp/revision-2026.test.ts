// `/mcp` in the MCP revision 2026-07-28 (DESIGN.md §5), beside 2025-11-25:
// no initialize and no session; server/discover; `resultType` on every
// result; cache hints on the tool list (private: the list is the caller's);
// the Mcp-Method/Mcp-Name headers checked against the body; Origin refused as
// for 2025; and a session credential's conversation, read-only and filtered,
// through the split SDK's client, over /mcp and `ops mcp`. The tool contract
// itself is tools.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf } from './clients.js';
import { httpClient2x, stdioClient2x } from './modern-clients.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

const REVISION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const FIVE_MINUTES = 300_000;

interface RpcAnswer {
  id: number;
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: { code: number; message: string };
}

/** One 2026-07-28 request as any HTTP client could send it: the envelope in `_meta`, the standard headers unless `headers` replaces them. */
function post(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, token = server.demoTokens.olive ?? null) {
  const body = { jsonrpc: '2.0', id: 5, method, params: { ...params, _meta: ENVELOPE } };
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return request(server.url, 'POST', '/mcp', {
    body,
    token,
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': method, ...name, ...headers },
  });
}

describe('/mcp in 2026-07-28', () => {
  it('answers server/discover with its revisions, capabilities and identity, cacheable by anyone, with no session', async () => {
    const answer = await post('server/discover', {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    const { result } = answer.body as RpcAnswer;
    expect(result).toMatchObject({
      supportedVersions: [REVISION],
      capabilities: { tools: {} },
      resultType: 'complete',
      ttlMs: FIVE_MINUTES,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'aion-ops' } },
    });
    expect(result?.instructions).toContain('call whoami first');
  });

  it('lists the tools without initialize, cacheable by this caller only, and calls one with resultType', async () => {
    const listed = (await post('tools/list', {})).body as RpcAnswer;
    expect(listed.result).toMatchObject({ resultType: 'complete', ttlMs: FIVE_MINUTES, cacheScope: 'private' });
    const ada = client(server.url, server.demoTokens.ada ?? '');
    const catalogue = (await ada.get('/api/v1/assistant/tools')).body as { tools: { name: string }[] };
    expect((listed.result?.tools as { name: string }[]).map((t) => t.name)).toEqual(catalogue.tools.map((t) => t.name));

    const called = (await post('tools/call', { name: 'whoami', arguments: {} })).body as RpcAnswer;
    expect(called.result).toMatchObject({ resultType: 'complete', isError: false, structuredContent: { operator: 'olive' } });
  });

  it('keeps 2025-11-25 answers as they were: no resultType, no cache hints', async () => {
    const body = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const answer = await request(server.url, 'POST', '/mcp', {
      body,
      token: server.demoTokens.olive ?? null,
      headers: { accept: 'application/json, text/event-stream' },
    });
    const { result } = answer.body as RpcAnswer;
    expect(result).toMatchObject({ isError: false, structuredContent: { operator: 'olive' } });
    expect(result).not.toHaveProperty('resultType');
  });

  it('refuses a request whose Mcp-Method or Mcp-Name header is missing or differs from its body, and runs nothing', async () => {
    const write = { name: 'create_environment', arguments: { project: 'shop', name: 'header-check' } };
    const ada = server.demoTokens.ada ?? null;
    const cases: Record<string, string>[] = [
      { 'mcp-method': 'tools/list' },
      { 'mcp-name': 'whoami' },
      { 'mcp-name': '' },
    ];
    for (const headers of cases) {
      const answer = await post('tools/call', write, headers, ada);
      expect([headers, answer.status]).toEqual([headers, 400]);
      const { error, result } = answer.body as RpcAnswer;
      expect(result).toBeUndefined();
      expect(error?.message).toMatch(/Mcp-(Method|Name)/);
    }
    const envs = (await client(server.url, ada).get('/api/v1/projects/shop')).body as { environments: { name: string }[] };
    expect(envs.environments.map((e) => e.name)).not.toContain('header-check');
  });

  it('refuses a revision it does not speak with 400 and the ones it does, not a 500', async () => {
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } };
    const answer = await request(server.url, 'POST', '/mcp', {
      body,
      token: server.demoTokens.olive ?? null,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify((answer.body as RpcAnswer).error)).toContain(REVISION);
  });

  it('answers malformed 2026-07-28 requests with a JSON-RPC error (a 4xx from the HTTP checks, a 200 from dispatch), never a 500', async () => {
    const token = server.demoTokens.olive ?? null;
    const headers = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION };
    const cases: { body: unknown; headers: Record<string, string> }[] = [
      // A name that is not a string, arguments that are not an object.
      { body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5, _meta: ENVELOPE } }, headers: { 'mcp-method': 'tools/call', 'mcp-name': '5' } },
      { body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: 'x', _meta: ENVELOPE } }, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'whoami' } },
      // An envelope that is not an object's worth of claims, a Base64 sentinel that does not decode.
      { body: { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } } }, headers: { 'mcp-method': 'tools/list' } },
      { body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'whoami', _meta: ENVELOPE } }, headers: { 'mcp-method': 'tools/call', 'mcp-name': '=?base64?%%%?=' } },
      // A method nobody has, and a batch that claims the envelope.
      { body: { jsonrpc: '2.0', id: 5, method: 'nope/nothing', params: { _meta: ENVELOPE } }, headers: { 'mcp-method': 'nope/nothing' } },
      { body: [{ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: ENVELOPE } }], headers: { 'mcp-method': 'tools/list' } },
    ];
    for (const { body, headers: extra } of cases) {
      const answer = await request(server.url, 'POST', '/mcp', { body, token, headers: { ...headers, ...extra } });
      expect([JSON.stringify(body), answer.status === 200 || (answer.status >= 400 && answer.status < 500)]).toEqual([JSON.stringify(body), true]);
      expect((answer.body as RpcAnswer).error?.message).toEqual(expect.any(String));
    }
  });

  it('refuses a foreign Origin and a missing token as it does for 2025-11-25', async () => {
    const foreign = await post('tools/list', {}, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((foreign.body as { error: string }).error).toContain('may not call /mcp');
    expect((await post('tools/list', {}, {}, null)).status).toBe(401);
  });
});

describe('a session credential in 2026-07-28 (SDK 2.x client)', () => {
  let credential: string;
  beforeAll(async () => {
    const ada = client(server.url, server.demoTokens.ada ?? '');
    const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
    credential = ((await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string }).token;
    await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: 'a: 1\n' } });
  });

  it('serves its conversation: the three conversation tools, structured output, and its edit', async () => {
    const agent = await httpClient2x(server.url, credential);
    try {
      const names = (await agent.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['assistant_context', 'assistant_document_edit', 'assistant_document_check']));
      const context = answerOf(await agent.callTool({ name: 'assistant_context', arguments: {} }));
      expect(context.isError).toBe(false);
      expect(JSON.stringify(context.result)).toContain('app.yaml');
      const edit = answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: { edits: [{ old_string: 'a: 1', new_string: 'a: 2' }] } }));
      expect(edit.isError).toBe(false);
      expect(answerOf(await agent.callTool({ name: 'assistant_document_check', arguments: {} })).isError).toBe(false);
    } finally {
      await agent.close();
    }
  });

  it('through `ops mcp --read-only` on stdio too', async () => {
    const agent = await stdioClient2x(server.url, credential, ['--read-only']);
    try {
      const names = (await agent.listTools()).tools.map((t) => t.name);
      expect(names).toContain('assistant_context');
      expect(names).not.toContain('assistant_document_edit');
      expect(answerOf(await agent.callTool({ name: 'assistant_context', arguments: {} })).isError).toBe(false);
      const edit = answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: { edits: [{ old_string: 'a', new_string: 'b' }] } }));
      expect(edit.isError).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('read-only and filtered by its headers', async () => {
    const agent = await httpClient2x(server.url, credential, { 'x-aion-read-only': '1', 'x-aion-tools': 'assistant_context,assistant_document_edit' });
    try {
      expect((await agent.listTools()).tools.map((t) => t.name)).toEqual(['assistant_context']);
      const edit = answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: { edits: [{ old_string: 'a: 2', new_string: 'a: 3' }] } }));
      expect(edit).toEqual({
        isError: true,
        result: { error: "assistant_document_edit is a tool that changes the operator's editor, and this connection is read-only" },
      });
    } finally {
      await agent.close();
    }
  });
});
