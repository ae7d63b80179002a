// DESIGN.md §10 invariant 12: read-only refuses writes at execution, whatever
// the client sends. A read-only connection cannot run a write by any route:
// not by name, not by a crafted JSON-RPC request or batch, not through the
// REST route `ops mcp` calls; and each attempt is audited as refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as restClient, request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

const READ_ONLY = { accept: 'application/json, text/event-stream', 'x-aion-read-only': '1' };
const REFUSED = 'create_environment is a write tool, and this connection is read-only';
const write = { name: 'create_environment', arguments: { project: 'shop', name: 'qa' } };

async function environments(): Promise<string[]> {
  const answer = await restClient(server.url, server.demoTokens.ada ?? '').post('/api/v1/assistant/tools/list_environments', {
    project: 'shop',
  });
  return (answer.body as { result: { environments: { name: string }[] } }).result.environments.map((e) => e.name);
}

type RpcAnswer = { id: number; result: { isError: boolean; structuredContent: { error?: string } } };

describe('read-only', () => {
  it('refuses a crafted tools/call, a batch of them, and a call that claims otherwise in _meta', async () => {
    const post = (body: unknown) => request(server.url, 'POST', '/mcp', { body, headers: READ_ONLY, token: server.demoTokens.ada ?? null });
    const single = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: write });
    expect((single.body as RpcAnswer).result).toMatchObject({ isError: true, structuredContent: { error: REFUSED } });

    const batch = await post([
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: write },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { ...write, _meta: { readOnly: false } } },
    ]);
    expect(batch.status).toBe(200);
    const answers = batch.body as RpcAnswer[];
    expect(answers.map((a) => [a.id, a.result.isError, a.result.structuredContent.error])).toEqual([
      [2, true, REFUSED],
      [3, true, REFUSED],
    ]);
  });

  it('refuses a write over the REST route that ops mcp --read-only calls', async () => {
    const answer = await restClient(server.url, server.demoTokens.ada ?? '').post('/api/v1/assistant/tools/create_environment', write.arguments, {
      headers: { 'x-aion-via': 'mcp', 'x-aion-read-only': '1' },
    });
    expect(answer.body).toEqual({ tool: 'create_environment', is_error: true, result: { error: REFUSED } });
  });

  it('ran none of them, and audited each as refused via mcp', async () => {
    expect(await environments()).toEqual(['production', 'staging']);
    const { entries } = (
      (await restClient(server.url, server.demoTokens.ada ?? '').post('/api/v1/assistant/tools/read_audit', {
        project: 'shop',
        tool: 'create_environment',
      })).body as { result: { entries: { via: string; outcome: string; error: string }[] } }
    ).result;
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry).toMatchObject({ via: 'mcp', outcome: 'refused', error: REFUSED });
  });
});
