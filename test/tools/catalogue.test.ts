// The catalogue as a client reads it (issue 9, items 11 and 12): `allowed`
// answers the spec's question where the query points, and an input schema
// requires the scope fields nobody will fill in for this caller.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, stdioClient } from '../mcp/clients.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callTool, demoClients } from '../helpers/tools.js';

interface Descriptor {
  name: string;
  allowed: boolean;
  input_schema: { required?: string[] };
}

let server: TestServer;
let who: Record<'ada' | 'olive' | 'dev' | 'vic', Client>;
let nemo: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  who = demoClients(server);
  const created = await who.ada.post('/api/v1/operators', { name: 'nemo' });
  nemo = client(server.url, (created.body as { token: { token: string } }).token.token);
});
afterAll(() => server.stop());

async function allowed(caller: Client, query = ''): Promise<Record<string, boolean>> {
  const answer = await caller.get(`/api/v1/assistant/tools${query}`);
  expect(answer.status, answer.text).toBe(200);
  return Object.fromEntries((answer.body as { tools: Descriptor[] }).tools.map((t) => [t.name, t.allowed]));
}

describe('allowed', () => {
  it('allows the tools that need no project to anyone signed in, whatever the query names', async () => {
    for (const query of ['', '?project=nope', '?project=shop&environment=nowhere', '?project=%00']) {
      for (const caller of [who.vic, nemo]) {
        const tools = await allowed(caller, query);
        expect([tools.whoami, tools.list_projects, tools.explain], query).toEqual([true, true, true]);
      }
    }
  });

  it('allows nothing that needs a project in an unknown one', async () => {
    const tools = await allowed(who.ada, '?project=nope');
    expect([tools.list_documents, tools.list_environments, tools.deploy]).toEqual([false, false, false]);
  });

  it('with no project named, allows a tool only if the caller could run it in some project', async () => {
    const none = await allowed(nemo);
    expect([none.list_documents, none.read_audit, none.deploy]).toEqual([false, false, false]);
    const viewer = await allowed(who.vic);
    expect([viewer.list_documents, viewer.write_document, viewer.deploy]).toEqual([true, false, false]);
    const developer = await allowed(who.dev);
    expect([developer.write_document, developer.deploy, developer.read_audit]).toEqual([true, true, false]);
    // Named alone, an environment counts only where a project has it.
    expect((await allowed(who.dev, '?environment=production')).deploy).toBe(false);
    expect((await allowed(who.dev, '?environment=staging')).deploy).toBe(true);
  });

  it('allows no tool that takes an environment when the environment named is unknown', async () => {
    const tools = await allowed(who.ada, '?project=shop&environment=nowhere');
    expect([tools.list_secrets, tools.deploy, tools.check_document, tools.diff_document, tools.set_secret]).toEqual([false, false, false, false, false]);
    expect([tools.list_documents, tools.write_document, tools.create_environment]).toEqual([true, true, true]);
  });
});

describe('published input schemas', () => {
  const schemaOf = (tools: { name: string; input_schema?: unknown; inputSchema?: unknown }[], name: string) => {
    const tool = tools.find((t) => t.name === name);
    return (tool?.input_schema ?? tool?.inputSchema) as { required?: string[] };
  };

  it('require on REST the scope fields a tool needs, which the tool route never fills', async () => {
    const tools = ((await who.vic.get('/api/v1/assistant/tools?project=shop')).body as { tools: Descriptor[] }).tools;
    expect(schemaOf(tools, 'list_documents').required).toEqual(['project']);
    expect(schemaOf(tools, 'list_secrets').required).toEqual(['project', 'environment']);
    expect(schemaOf(tools, 'read_document').required).toEqual(['project', 'path']);
    expect(schemaOf(tools, 'diff_document').required).toEqual(['project', 'path']);
    expect(schemaOf(tools, 'whoami').required ?? []).toEqual([]);

    // What the schema refuses is what the route refuses, and the other way round.
    const ajv = new Ajv({ strict: false });
    for (const [name, input] of [['list_documents', {}], ['list_secrets', { project: 'shop' }]] as const) {
      const schema = tools.find((t) => t.name === name)?.input_schema ?? {};
      expect(ajv.validate(schema, input), name).toBe(false);
      expect((await callTool(who.vic, name, input)).status, name).toBe(422);
    }
  });

  it('leave out on /mcp and through `ops mcp` what the connection’s scope fills', async () => {
    const scoped = await httpClient(server.url, server.demoTokens.vic ?? '', { 'x-aion-project': 'shop' });
    const bare = await httpClient(server.url, server.demoTokens.vic ?? '');
    const proxy = await stdioClient(server.url, server.demoTokens.vic ?? '', ['--project', 'shop']);
    try {
      const scopedTools = (await scoped.listTools()).tools;
      expect(schemaOf(scopedTools, 'list_documents').required ?? []).toEqual([]);
      expect(schemaOf(scopedTools, 'list_secrets').required).toEqual(['environment']);
      expect(schemaOf((await bare.listTools()).tools, 'list_documents').required).toEqual(['project']);
      const proxied = (await proxy.client.listTools()).tools;
      expect(schemaOf(proxied, 'list_documents').required ?? []).toEqual([]);
      expect(schemaOf(proxied, 'list_secrets').required).toEqual(['environment']);
    } finally {
      await Promise.all([scoped.close(), bare.close(), proxy.client.close()]);
    }
  });
});
