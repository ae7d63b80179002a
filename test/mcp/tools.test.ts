// The same MCP contract over both transports: `ops mcp` on stdio (proxying
// REST) and `/mcp` over Streamable HTTP (in-process). Listing with
// annotations, reads, refusals, schema mismatches, unknown tools, scope
// filling, read-only, the tool filter, and the audit of every call as `mcp`.
// Both transports are held to it in both revisions, 2025-11-25 and
// 2026-07-28, with the 1.x SDK's client (2025-11-25) and the split SDK's (2.x,
// either revision).
import type { Client as Client2x } from '@modelcontextprotocol/client';
import type { Client as Client1x } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as restClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, httpClient, stdioClient } from './clients.js';
import { httpClient2x, stdioClient2x, type Revision } from './modern-clients.js';

type Client = Client1x | Client2x;

interface Connection {
  project?: string;
  environment?: string;
  onlyEnvironment?: string;
  readOnly?: boolean;
  tools?: string[];
}

type Connect = (server: TestServer, operator: string, connection?: Connection) => Promise<Client>;

function flagsOf({ project, environment, onlyEnvironment, readOnly, tools }: Connection = {}): string[] {
  return [
    ...(project ? ['--project', project] : []),
    ...(environment ? ['--environment', environment] : []),
    ...(onlyEnvironment ? ['--only-environment', onlyEnvironment] : []),
    ...(readOnly ? ['--read-only'] : []),
    ...(tools ? ['--tools', tools.join(',')] : []),
  ];
}

function headersOf({ project, environment, onlyEnvironment, readOnly, tools }: Connection = {}): Record<string, string> {
  return {
    ...(project ? { 'X-Aion-Project': project } : {}),
    ...(environment ? { 'X-Aion-Environment': environment } : {}),
    ...(onlyEnvironment ? { 'X-Aion-Only-Environment': onlyEnvironment } : {}),
    ...(readOnly ? { 'X-Aion-Read-Only': '1' } : {}),
    ...(tools ? { 'X-Aion-Tools': tools.join(',') } : {}),
  };
}

const http2x =
  (revision: Revision): Connect =>
  (server, operator, connection) =>
    httpClient2x(server.url, server.demoTokens[operator] ?? '', headersOf(connection), revision);

const TRANSPORTS: [string, Connect][] = [
  ['ops mcp (stdio)', async (server, operator, connection) => (await stdioClient(server.url, server.demoTokens[operator] ?? '', flagsOf(connection))).client],
  ['/mcp (Streamable HTTP)', (server, operator, connection) => httpClient(server.url, server.demoTokens[operator] ?? '', headersOf(connection))],
  ['ops mcp 2026-07-28 (SDK 2.x client)', async (server, operator, connection) => stdioClient2x(server.url, server.demoTokens[operator] ?? '', flagsOf(connection))],
  [
    'ops mcp 2025-11-25 (SDK 2.x client)',
    async (server, operator, connection) => stdioClient2x(server.url, server.demoTokens[operator] ?? '', flagsOf(connection), '2025-11-25'),
  ],
  ['/mcp 2026-07-28 (SDK 2.x client)', http2x('2026-07-28')],
  ['/mcp 2025-11-25 (SDK 2.x client)', http2x('2025-11-25')],
];

let server: TestServer;
/** Connections by transport, operator and settings: a stdio one is a process, so tests share them. */
const open = new Map<string, Promise<Client>>();

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(async () => {
  await Promise.all([...open.values()].map(async (client) => (await client).close()));
  await server.stop();
});

describe.each(TRANSPORTS)('%s', (name, connect) => {
  const as = (operator: string, connection?: Connection) => {
    const key = JSON.stringify([name, operator, connection ?? {}]);
    const client = open.get(key) ?? connect(server, operator, connection);
    open.set(key, client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    answerOf(await client.callTool({ name, arguments: args }));

  it('lists every tool with its schema; reads are read-only, writes destructive', async () => {
    const { tools } = await (await as('ada')).listTools();
    const ada = restClient(server.url, server.demoTokens.ada ?? '');
    const catalogue = (await ada.get('/api/v1/assistant/tools')).body as {
      tools: { name: string; tag: string; input_schema: unknown; description: string }[];
    };
    expect(tools.map((t) => t.name)).toEqual(catalogue.tools.map((t) => t.name));
    for (const descriptor of catalogue.tools) {
      const tool = tools.find((t) => t.name === descriptor.name);
      expect(tool?.description).toBe(descriptor.description);
      expect(tool?.inputSchema).toEqual(descriptor.input_schema);
      if (descriptor.tag === 'read') expect(tool?.annotations).toEqual({ readOnlyHint: true });
      else expect(tool?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    }
    expect(tools.find((t) => t.name === 'list_environments')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'create_environment')?.annotations?.destructiveHint).toBe(true);
  });

  it('runs a read tool and answers with structured content and the same JSON as text', async () => {
    const answer = await call(await as('olive'), 'list_environments', { project: 'shop' });
    expect(answer.isError).toBe(false);
    expect(answer.result.project).toBe('shop');
    const environments = answer.result.environments as { name: string; protected: boolean }[];
    expect(environments.map((e) => [e.name, e.protected])).toEqual([
      ['production', true],
      ['staging', false],
    ]);
  });

  it("answers a refusal as isError with the executor's sentence", async () => {
    const answer = await call(await as('vic'), 'create_environment', { project: 'shop', name: 'qa' });
    expect(answer).toEqual({
      isError: true,
      result: { error: 'you need environment:manage on shop; your role there is viewer' },
    });
  });

  it('answers input that misses the schema as isError with the validation sentence', async () => {
    const client = await as('ada');
    expect(await call(client, 'create_environment', { project: 'shop', name: 'Not Valid' })).toEqual({
      isError: true,
      result: { error: 'create_environment: input.name must match pattern "^[a-z0-9][a-z0-9-]{0,62}$"' },
    });
    expect(await call(client, 'whoami', { verbose: true })).toEqual({
      isError: true,
      result: { error: 'whoami: input has an unknown property verbose; remove it' },
    });
  });

  it('answers an unknown tool as isError with a sentence', async () => {
    expect(await call(await as('ada'), 'drop_tables')).toEqual({
      isError: true,
      result: { error: "no such tool: drop_tables; tools/list names this connection's tools" },
    });
  });

  it("fills the connection's project and environment where the call leaves them out", async () => {
    const client = await as('dev', { project: 'shop', environment: 'staging' });
    const environments = await call(client, 'list_environments');
    expect(environments.isError).toBe(false);
    expect(environments.result.project).toBe('shop');
    const secrets = await call(client, 'list_secrets');
    expect(secrets.isError).toBe(false);
    expect([secrets.result.project, secrets.result.environment]).toEqual(['shop', 'staging']);
    // What the call names wins; a tool without those fields gets none.
    expect((await call(client, 'list_secrets', { environment: 'production' })).result.environment).toBe('production');
    expect((await call(client, 'whoami')).result.operator).toBe('dev');
  });

  it('--only-environment / X-Aion-Only-Environment: fills the environment and refuses every call that names another', async () => {
    const client = await as('olive', { project: 'shop', onlyEnvironment: 'staging' });
    expect((await call(client, 'list_secrets')).result.environment).toBe('staging');
    const fenced = (tool: string) => `${tool} names the environment production, and this connection is fenced to the environment staging`;
    expect(await call(client, 'list_secrets', { environment: 'production' })).toEqual({ isError: true, result: { error: fenced('list_secrets') } });
    expect(await call(client, 'deploy', { environment: 'production', path: 'app.yaml' })).toEqual({ isError: true, result: { error: fenced('deploy') } });
    // A tool of the whole project is inside every fence.
    expect((await call(client, 'list_documents')).isError).toBe(false);
  });

  it('read-only: hides the write tools, and refuses one called by name', async () => {
    const client = await as('ada', { readOnly: true });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name)).not.toContain('create_environment');
    expect(await call(client, 'create_environment', { project: 'shop', name: 'qa' })).toEqual({
      isError: true,
      result: { error: 'create_environment is a write tool, and this connection is read-only' },
    });
    expect((await call(client, 'list_environments', { project: 'shop' })).isError).toBe(false);
  });

  it('--tools / X-Aion-Tools: only the named tools exist', async () => {
    const client = await as('ada', { tools: ['whoami', 'list_environments'] });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'list_environments']);
    expect((await call(client, 'whoami')).isError).toBe(false);
    expect(await call(client, 'list_members', { project: 'shop' })).toEqual({
      isError: true,
      result: { error: "no such tool: list_members; tools/list names this connection's tools" },
    });
  });

  it('audits every call with via mcp, refusals and failures too', async () => {
    const ada = restClient(server.url, server.demoTokens.ada ?? '');
    const newest = async (tool: string) => {
      const answer = await ada.post('/api/v1/assistant/tools/read_audit', { project: 'shop', tool, limit: 1 });
      return (answer.body as { result: { entries: Record<string, unknown>[] } }).result.entries[0];
    };
    const olive = await as('olive');
    await call(olive, 'list_members', { project: 'shop' });
    expect(await newest('list_members')).toMatchObject({ via: 'mcp', operator: 'olive', outcome: 'ok' });
    await call(await as('vic'), 'set_member_role', { project: 'shop', operator: 'vic', role: 'admin' });
    expect(await newest('set_member_role')).toMatchObject({ via: 'mcp', operator: 'vic', outcome: 'refused' });
    await call(await as('ada'), 'remove_member', { project: 'shop', operator: 'nobody' });
    expect(await newest('remove_member')).toMatchObject({ via: 'mcp', operator: 'ada', outcome: 'error' });
  });
});
