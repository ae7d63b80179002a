// An agent attached to a conversation over MCP with the session credential:
// it sees the three conversation tools beside the public ones, its writes wait
// on the thread as proposals, and its edits and the console's never lose
// each other.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, httpClient, stdioClient } from '../mcp/clients.js';
import { client, type Client as HttpClient } from '../helpers/http.js';
import { whileTurnRunsElsewhere } from '../helpers/running-turn.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type SpecSchemas = Record<string, { inputSchema: object; outputSchema: object }>;
const CONVERSATION_TOOLS = ['assistant_context', 'assistant_document_edit', 'assistant_document_check'];
const SPEC = JSON.parse(readFileSync(new URL('./fixtures/spec-schemas.json', import.meta.url), 'utf8')) as SpecSchemas;
const ajv = new Ajv({ strict: false });

let server: TestServer;
let ada: HttpClient;
let thread: string;
let credential: string;
let agent: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
  credential = ((await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string }).token;
  agent = await httpClient(server.url, credential);
});
afterAll(async () => {
  await agent.close();
  await server.stop();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const answer = answerOf(await agent.callTool({ name, arguments: args }));
  const schema = SPEC[name]?.outputSchema;
  if (schema && !answer.isError) {
    const validate = ajv.compile(schema);
    expect(validate(answer.result), JSON.stringify(validate.errors)).toBe(true);
  }
  return answer;
}

/** The conversation tools as a connection lists them: schemas exactly as the spec gives them, and their annotations. */
async function expectSpecTools(connection: Client) {
  const listed = (await connection.listTools()).tools.filter((t) => CONVERSATION_TOOLS.includes(t.name));
  expect(listed.map((t) => t.name).sort()).toEqual([...CONVERSATION_TOOLS].sort());
  for (const tool of listed) {
    expect(tool.outputSchema, tool.name).toEqual(SPEC[tool.name]?.outputSchema);
    expect(tool.inputSchema, tool.name).toEqual(SPEC[tool.name]?.inputSchema);
  }
  const annotations = Object.fromEntries(listed.map((t) => [t.name, t.annotations]));
  expect(annotations).toEqual({
    assistant_context: { readOnlyHint: true },
    assistant_document_check: { readOnlyHint: true },
    // It changes the operator's unsaved buffer: not read-only, not destructive.
    assistant_document_edit: { readOnlyHint: false, destructiveHint: false },
  });
}

describe('the conversation tools, exactly as specified', () => {
  it('declare the spec’s input and output schemas on /mcp, and the SDK client checks results against them', async () => {
    const connection = await httpClient(server.url, credential);
    try {
      await expectSpecTools(connection);
      // Errors are text only, so the client's check of structured content does not reject them.
      const unshared = answerOf(await connection.callTool({ name: 'assistant_document_check', arguments: {} }));
      expect(unshared).toEqual({ isError: true, result: { error: 'the operator has no document open in the editor; ask them to open one' } });
      await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: '' } });
      // The SDK client validates each structured result against the declared schema, or throws.
      expect(answerOf(await connection.callTool({ name: 'assistant_context', arguments: {} })).result).toMatchObject({ shared: true });
      const edited = answerOf(await connection.callTool({ name: 'assistant_document_edit', arguments: { edits: [{ old_string: '', new_string: 'a: 1\n' }] } }));
      expect(edited.result).toMatchObject({ applied: 1, path: 'app.yaml' });
      const checked = answerOf(await connection.callTool({ name: 'assistant_document_check', arguments: {} }));
      expect(checked).toMatchObject({ isError: false, result: { ok: expect.any(Boolean), diagnostics: expect.any(Array) } });
    } finally {
      await ada.put(`/api/v1/assistant/threads/${thread}/context`, { shared: false });
      await connection.close();
    }
  });

  it('assistant_document_check in a conversation of no project: not ok, saying the schema and secrets went unchecked', async () => {
    const bare = ((await ada.post('/api/v1/assistant/threads', {})).body as { id: string }).id;
    const token = ((await ada.post(`/api/v1/assistant/threads/${bare}/session-credential`)).body as { token: string }).token;
    const connection = await httpClient(server.url, token);
    try {
      // Valid YAML that fails shop's schema (no service, a port of the wrong type) and names a secret set nowhere.
      await ada.put(`/api/v1/assistant/threads/${bare}/context`, { document: { path: 'app.yaml', text: 'port: "x"\ndb: ${secret:NOWHERE}\n' } });
      const checked = answerOf(await connection.callTool({ name: 'assistant_document_check', arguments: {} }));
      expect(checked.isError).toBe(false);
      expect(checked.result).toEqual({
        ok: false,
        diagnostics: [{ line: 1, column: 1, message: expect.stringMatching(/^this conversation has no project, so the project's schema and the environment's secrets were not checked/) as unknown }],
      });
    } finally {
      await connection.close();
      await ada.delete(`/api/v1/assistant/threads/${bare}`);
    }
  });

  it('declare them through `ops mcp` too', async () => {
    const { client: stdio } = await stdioClient(server.url, credential);
    try {
      await expectSpecTools(stdio);
      const unshared = answerOf(await stdio.callTool({ name: 'assistant_document_check', arguments: {} }));
      expect(unshared.isError).toBe(true);
      expect(answerOf(await stdio.callTool({ name: 'assistant_context', arguments: {} })).result).toEqual({ shared: false });
    } finally {
      await stdio.close();
    }
  });
});

describe('/mcp with a session credential', () => {
  it('lists the three conversation tools beside the public ones', async () => {
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['assistant_context', 'assistant_document_edit', 'assistant_document_check', 'list_environments', 'deploy']));
    const operator = await httpClient(server.url, server.demoTokens.ada ?? '');
    const publicNames = (await operator.listTools()).tools.map((t) => t.name);
    await operator.close();
    expect(publicNames).not.toContain('assistant_context');
  });

  it('runs reads at once, as the thread’s operator, in the thread’s scope', async () => {
    expect(await call('assistant_context')).toEqual({ isError: false, result: { shared: false } });
    const secrets = await call('list_secrets');
    expect(secrets.result).toMatchObject({ project: 'shop', environment: 'staging' });
  });

  it('turns a write into a proposal on the thread (while a turn of it runs, here on another server), which runs only when the operator accepts it', async () => {
    const proposed = await whileTurnRunsElsewhere(server.services.db, thread, () => call('create_environment', { name: 'agent-env' }));
    expect(proposed).toMatchObject({ isError: false, result: { proposed: true, status: 'pending' } });
    const view = (await ada.get(`/api/v1/assistant/threads/${thread}`)).body as {
      state: string;
      messages: { role: string; text: string }[];
      proposals: { id: string; tool: string; status: string }[];
    };
    expect(view.state).toBe('waiting');
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'An agent in this conversation proposes: create environment agent-env.' });
    const envsBefore = ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] }).environments;
    expect(envsBefore.map((e) => e.name)).not.toContain('agent-env');
    const id = view.proposals.at(-1)?.id;
    expect((await ada.post(`/api/v1/assistant/threads/${thread}/proposals/${id}/accept`)).status).toBe(200);
    const envsAfter = ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] }).environments;
    expect(envsAfter.map((e) => e.name)).toContain('agent-env');
  });


  it('keeps an attached agent’s proposals made one after another on one answer, so they wait and are accepted together', async () => {
    await whileTurnRunsElsewhere(server.services.db, thread, async () => {
      for (const name of ['agent-env-two', 'agent-env-three']) {
        expect(await call('create_environment', { name })).toMatchObject({ isError: false, result: { proposed: true, status: 'pending' } });
      }
    });
    const view = (await ada.get(`/api/v1/assistant/threads/${thread}`)).body as {
      messages: { id: number; role: string; text: string }[];
      proposals: { message_id: number; status: string }[];
    };
    const newest = view.messages.at(-1);
    expect(newest?.text).toBe('An agent in this conversation proposes: create environment agent-env-two; create environment agent-env-three.');
    expect(view.proposals.filter((p) => p.status === 'pending')).toEqual([
      expect.objectContaining({ message_id: newest?.id }),
      expect.objectContaining({ message_id: newest?.id }),
    ]);
    expect((await ada.post(`/api/v1/assistant/threads/${thread}/proposals/accept-all`)).status).toBe(200);
    const names = ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] }).environments.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['agent-env-two', 'agent-env-three']));
  });
  it('edits the shared document while the console edits too: neither is lost, both see the revision move', async () => {
    await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: 'a: 1\nb: 1\n' } });
    const start = ((await call('assistant_context')).result as { revision: number }).revision;

    // The console edits on what it saw; the agent edits meanwhile.
    const agentEdit = await call('assistant_document_edit', { edits: [{ old_string: 'a: 1', new_string: 'a: 2' }] });
    expect(agentEdit.result).toEqual({ applied: 1, revision: start + 1, path: 'app.yaml' });
    const stale = await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: 'a: 1\nb: 2\n' }, base_revision: start });
    expect(stale.status).toBe(409);
    const current = (stale.body as { context: { revision: number; document: { text: string } } }).context;
    expect(current.revision).toBe(start + 1);
    // The console rebases its edit onto the agent's and sends it again.
    const rebased = await ada.put(`/api/v1/assistant/threads/${thread}/context`, {
      document: { path: 'app.yaml', text: current.document.text.replace('b: 1', 'b: 2') },
      base_revision: current.revision,
    });
    expect(rebased.status).toBe(200);
    const seen = (await call('assistant_context')).result as { revision: number; document: { text: string } };
    expect(seen).toMatchObject({ revision: start + 2, document: { text: 'a: 2\nb: 2\n' } });
    expect((await call('assistant_document_check')).result).toMatchObject({ ok: expect.any(Boolean) });
  });

  it('is served by `ops mcp --token aion_ses_…` on stdio too', async () => {
    const { client: stdio } = await stdioClient(server.url, credential);
    try {
      const names = (await stdio.listTools()).tools.map((t) => t.name);
      expect(names).toContain('assistant_document_edit');
      const context = answerOf(await stdio.callTool({ name: 'assistant_context', arguments: {} }));
      expect(context.result).toMatchObject({ shared: true, document: { path: 'app.yaml' } });
    } finally {
      await stdio.close();
    }
  });

  it('stops working when the thread is deleted', async () => {
    const other = ((await ada.post('/api/v1/assistant/threads', { project: 'shop' })).body as { id: string }).id;
    const token = ((await ada.post(`/api/v1/assistant/threads/${other}/session-credential`)).body as { token: string }).token;
    expect((await ada.delete(`/api/v1/assistant/threads/${other}`)).status).toBe(204);
    await expect(httpClient(server.url, token)).rejects.toThrow();
  });
});
