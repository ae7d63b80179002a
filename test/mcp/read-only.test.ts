// DESIGN.md §10 invariant 12: read-only refuses writes at execution, whatever
// the client sends. A read-only connection cannot run a write by any route:
// not by name, not by a crafted JSON-RPC request or batch, not through the
// REST route `ops mcp` calls; and each attempt is audited as refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as restClient, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = restClient(server.url, server.demoTokens.ada ?? '');
});
afterAll(() => server.stop());

const READ_ONLY = { accept: 'application/json, text/event-stream', 'x-aion-read-only': '1' };
const REFUSED = 'create_environment is a write tool, and this connection is read-only';
const write = { name: 'create_environment', arguments: { project: 'shop', name: 'qa' } };

interface RpcAnswer {
  id: number;
  result: { isError: boolean; structuredContent: { error?: string } };
}

interface ToolCallResponse {
  is_error: boolean;
  result: Record<string, unknown>;
}

/** A tool run as ada over REST. */
async function runTool(name: string, input: Record<string, unknown>, headers: Record<string, string> = {}) {
  return (await ada.post(`/api/v1/assistant/tools/${name}`, input, { headers })).body as ToolCallResponse;
}

describe('read-only', () => {
  it('refuses a crafted tools/call, a batch of them, and a call that claims otherwise in _meta', async () => {
    const token = server.demoTokens.ada ?? null;
    const post = (body: unknown) => request(server.url, 'POST', '/mcp', { body, headers: READ_ONLY, token });
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
    const answer = await runTool(write.name, write.arguments, { 'x-aion-via': 'mcp', 'x-aion-read-only': '1' });
    expect(answer).toEqual({ tool: write.name, is_error: true, result: { error: REFUSED } });
  });

  it('ran none of them, and audited each as refused via mcp', async () => {
    const { result } = await runTool('list_environments', { project: 'shop' });
    expect((result.environments as { name: string }[]).map((e) => e.name)).toEqual(['production', 'staging']);
    const audit = await runTool('read_audit', { project: 'shop', tool: write.name });
    const entries = audit.result.entries as { via: string; outcome: string; error: string }[];
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry).toMatchObject({ via: 'mcp', outcome: 'refused', error: REFUSED });
  });
});
