// Read-only and the tool filter bind every caller (DESIGN.md §10 invariant
// 12): a session credential on `/mcp` and through `ops mcp`, where read-only
// refuses every tool that changes anything — a proposal on the thread, an edit
// of the shared buffer — and a filtered-out tool does not exist; and the REST
// tool route, whatever X-Aion-Via says, in any letter case.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { whileTurnRunsElsewhere } from '../helpers/running-turn.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, httpClient, stdioClient } from './clients.js';

let server: TestServer;
let ada: Client;
let thread: string;
let credential: string;

interface ThreadView {
  proposals: unknown[];
}

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
  credential = ((await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string }).token;
  await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: 'a: 1\n' } });
});
afterAll(() => server.stop());

const context = async () => ((await ada.get(`/api/v1/assistant/threads/${thread}/context`)).body as { revision: number; document: { text: string } });
const proposalCount = async () => ((await ada.get(`/api/v1/assistant/threads/${thread}`)).body as ThreadView).proposals.length;

const EDIT = { edits: [{ old_string: 'a: 1', new_string: 'a: 2' }] };

/** A read-only session connection refuses both kinds of change, and makes neither. */
async function refusesChanges(agent: McpClient) {
  const names = (await agent.listTools()).tools.map((t) => t.name);
  expect(names).toContain('assistant_context');
  expect(names).toContain('list_secrets');
  expect(names).not.toContain('create_environment');
  expect(names).not.toContain('assistant_document_edit');

  const before = await context();
  const proposals = await proposalCount();
  const write = answerOf(await agent.callTool({ name: 'create_environment', arguments: { name: 'read-only-env' } }));
  expect(write).toEqual({ isError: true, result: { error: 'create_environment is a write tool, and this connection is read-only' } });
  const edit = answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: EDIT }));
  expect(edit).toEqual({
    isError: true,
    result: { error: "assistant_document_edit is a tool that changes the operator's editor, and this connection is read-only" },
  });
  expect(await proposalCount()).toBe(proposals);
  expect(await context()).toMatchObject({ revision: before.revision, document: { text: 'a: 1\n' } });
  // Reads still run.
  expect(answerOf(await agent.callTool({ name: 'assistant_context', arguments: {} })).isError).toBe(false);
}

describe('a session credential', () => {
  it('on /mcp with X-Aion-Read-Only refuses writes and buffer edits', async () => {
    const agent = await httpClient(server.url, credential, { 'X-AION-READ-ONLY': 'True' });
    try {
      await refusesChanges(agent);
    } finally {
      await agent.close();
    }
  });

  it('through `ops mcp --read-only` refuses them too', async () => {
    const { client: agent } = await stdioClient(server.url, credential, ['--read-only']);
    try {
      await refusesChanges(agent);
    } finally {
      await agent.close();
    }
  });

  it('on /mcp with X-Aion-Tools sees and runs only the tools named', async () => {
    const agent = await httpClient(server.url, credential, { 'x-aion-tools': 'Assistant_Context, list_secrets' });
    try {
      expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual(['assistant_context', 'list_secrets']);
      const proposals = await proposalCount();
      const filtered = answerOf(await agent.callTool({ name: 'set_secret', arguments: { name: 'FILTERED', value: 'v' } }));
      expect(filtered).toEqual({ isError: true, result: { error: "no such tool: set_secret; tools/list names this connection's tools" } });
      expect(await proposalCount()).toBe(proposals);
      const edit = answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: EDIT }));
      expect(edit.isError).toBe(true);
      expect((await context()).document.text).toBe('a: 1\n');
    } finally {
      await agent.close();
    }
  });

  it('without restrictions still proposes and edits, so the refusals above are the headers’ doing', async () => {
    const agent = await httpClient(server.url, credential);
    try {
      // Proposed while a turn of the thread runs (here on another server): between turns nothing is (DESIGN.md §14).
      const proposed = await whileTurnRunsElsewhere(server.services.db, thread, () => agent.callTool({ name: 'set_secret', arguments: { name: 'UNRESTRICTED', value: 'v' } }));
      expect(answerOf(proposed).result).toMatchObject({ proposed: true });
      expect(answerOf(await agent.callTool({ name: 'assistant_document_edit', arguments: EDIT })).isError).toBe(false);
    } finally {
      await agent.close();
    }
  });
});

describe('the REST tool route', () => {
  const run = (name: string, input: Record<string, unknown>, headers: Record<string, string>) =>
    ada.post(`/api/v1/assistant/tools/${name}`, input, { headers });

  it('holds X-Aion-Read-Only for any caller, in any letter case', async () => {
    const answer = await run('create_environment', { project: 'shop', name: 'rest-read-only' }, { 'X-Aion-Read-Only': 'YES' });
    expect(answer.body).toEqual({
      tool: 'create_environment',
      is_error: true,
      result: { error: 'create_environment is a write tool, and this connection is read-only' },
    });
    const listed = (await ada.get('/api/v1/assistant/tools', { headers: { 'x-aion-read-only': '1' } })).body as { tools: { tag: string }[] };
    expect(listed.tools.some((t) => t.tag === 'write')).toBe(false);
  });

  it('holds X-Aion-Tools for any caller: a tool it leaves out is a 404', async () => {
    expect((await run('list_projects', {}, { 'x-aion-tools': 'WHOAMI' })).status).toBe(404);
    expect((await run('whoami', {}, { 'x-aion-tools': 'WHOAMI' })).status).toBe(200);
  });

  it('refuses a read-only value it cannot read, rather than ignore it', async () => {
    const answer = await run('create_environment', { project: 'shop', name: 'rest-maybe' }, { 'x-aion-read-only': 'maybe' });
    expect(answer.status).toBe(422);
    expect((answer.body as { error: string }).error).toContain('X-Aion-Read-Only');
    const envs = ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] }).environments;
    expect(envs.map((e) => e.name)).not.toContain('rest-maybe');
  });

  it('takes X-Aion-Via in any letter case', async () => {
    await run('list_environments', { project: 'shop' }, { 'x-aion-via': 'Console' });
    const entries = (await run('read_audit', { project: 'shop', tool: 'list_environments', limit: 1 }, {})).body as {
      result: { entries: { via: string }[] };
    };
    expect(entries.result.entries[0]?.via).toBe('console');
  });
});
