// The conversation: shared context, the shared document buffer and its
// revisions, the three tools exactly as the spec's schemas, and what a
// session credential may and may not reach.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { findOperator, type Operator } from '../../src/access/operators.js';
import { hashToken } from '../../src/access/tokens.js';
import { tokens } from '../../src/store/schema.js';
import { CONVERSATION_TOOLS } from '../../src/conversation/tools.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type SpecSchemas = Record<string, { inputSchema: object; outputSchema: object }>;
const SPEC = JSON.parse(readFileSync(new URL('./fixtures/spec-schemas.json', import.meta.url), 'utf8')) as SpecSchemas;
const ajv = new Ajv({ strict: false, allErrors: true });
const outputOf = (tool: string) => ajv.compile(SPEC[tool]?.outputSchema ?? {});

let server: TestServer;
let ada: Client;
let adaOperator: Operator;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  adaOperator = await findOperator(server.services.db, 'ada');
});
afterAll(() => server.stop());

async function openThread(environment = 'staging'): Promise<string> {
  return ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment })).body as { id: string }).id;
}

async function tool(threadId: string, name: string, input: unknown) {
  const outcome = await server.services.executor.run({ operator: adaOperator, via: 'mcp', threadId, conversation: true }, name, input);
  const validate = outputOf(name);
  if (!outcome.is_error) expect(validate(outcome.result), JSON.stringify(validate.errors)).toBe(true);
  return outcome;
}

const share = (threadId: string, body: object) => ada.put(`/api/v1/assistant/threads/${threadId}/context`, body);

describe('the three tools', () => {
  it('take exactly the spec’s input schemas', () => {
    for (const t of CONVERSATION_TOOLS) expect(t.input_schema, t.name).toEqual(SPEC[t.name]?.inputSchema);
  });

  it('are absent from the public catalogue and from calls outside a conversation', async () => {
    const listed = (await ada.get('/api/v1/assistant/tools')).body as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).not.toContain('assistant_context');
    expect((await ada.post('/api/v1/assistant/tools/assistant_context', {})).status).toBe(404);
  });
});

describe('assistant_context', () => {
  it('is shared:false and nothing else before the console shares', async () => {
    const thread = await openThread();
    expect((await tool(thread, 'assistant_context', {})).result).toEqual({ shared: false });
    expect((await ada.get(`/api/v1/assistant/threads/${thread}/context`)).body).toEqual({ shared: false });
  });

  it('returns url, concepts, the document with one-based selection and cursor, and the revision', async () => {
    const thread = await openThread();
    const put = await share(thread, {
      url: '/projects/shop/documents/app.yaml',
      concepts: ['Document', 'Revision'],
      document: {
        path: 'app.yaml',
        text: 'service: shop\nport: 8080\n',
        selection: { from_line: 2, from_column: 1, to_line: 2, to_column: 11 },
        cursor: { line: 2, column: 11 },
      },
    });
    expect(put.status).toBe(200);
    const result = (await tool(thread, 'assistant_context', {})).result;
    expect(result).toEqual({
      shared: true,
      url: '/projects/shop/documents/app.yaml',
      concepts: ['Document', 'Revision'],
      document: {
        path: 'app.yaml',
        text: 'service: shop\nport: 8080\n',
        selection: { from_line: 2, from_column: 1, to_line: 2, to_column: 11 },
        cursor: { line: 2, column: 11 },
      },
      revision: 1,
    });
    expect((await ada.get(`/api/v1/assistant/threads/${thread}/context`)).body).toEqual(result);
    expect((await share(thread, { shared: false })).body).toEqual({ shared: false });
    expect((await tool(thread, 'assistant_context', {})).result).toEqual({ shared: false });
  });

  it('refuses zero-based positions and unknown fields with 422', async () => {
    const thread = await openThread();
    const zero = await share(thread, { document: { path: 'a.yaml', text: 'a: 1\n', cursor: { line: 0, column: 1 } } });
    expect(zero.status).toBe(422);
    expect((await share(thread, { colour: 'blue' })).status).toBe(422);
  });
});

describe('revisions', () => {
  it('count the operator’s text changes and the assistant’s edits; a stale PUT is a 409 with the current context', async () => {
    const thread = await openThread();
    expect(((await share(thread, { document: { path: 'app.yaml', text: 'a: 1\n' } })).body as { revision: number }).revision).toBe(1);
    // selection and cursor alone are no edit batch
    const moved = await share(thread, { document: { path: 'app.yaml', text: 'a: 1\n', cursor: { line: 1, column: 3 } } });
    expect((moved.body as { revision: number }).revision).toBe(1);
    const edited = await tool(thread, 'assistant_document_edit', { edits: [{ old_string: 'a: 1', new_string: 'a: 2' }] });
    expect(edited.result).toEqual({ applied: 1, revision: 2, path: 'app.yaml' });

    const stale = await share(thread, { document: { path: 'app.yaml', text: 'a: 1\nb: 1\n' }, base_revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: expect.stringContaining('revision 2'), context: { revision: 2, document: { text: 'a: 2\n' } } });
    const missingBase = await share(thread, { document: { path: 'app.yaml', text: 'a: 2\nb: 1\n' } });
    expect(missingBase.status).toBe(409);
    const rebased = await share(thread, { document: { path: 'app.yaml', text: 'a: 2\nb: 1\n' }, base_revision: 2 });
    expect(rebased.status).toBe(200);
    expect((rebased.body as { revision: number }).revision).toBe(3);
  });

  it('wake a waiting GET when an edit lands', async () => {
    const thread = await openThread();
    await share(thread, { document: { path: 'app.yaml', text: 'port: 1\n' } });
    const started = Date.now();
    const waiting = ada.get(`/api/v1/assistant/threads/${thread}/context?after=1&wait=20`);
    await expect.poll(() => server.services.changes.waiting).toBe(1);
    await tool(thread, 'assistant_document_edit', { edits: [{ old_string: 'port: 1', new_string: 'port: 2' }] });
    const woken = await waiting;
    expect(woken.body).toMatchObject({ revision: 2, document: { text: 'port: 2\n' } });
    expect(Date.now() - started).toBeLessThan(5000);
    const timedOut = await ada.get(`/api/v1/assistant/threads/${thread}/context?after=2&wait=0.3`);
    expect(timedOut.body).toMatchObject({ revision: 2 });
  });
});

describe('assistant_document_edit', () => {
  async function sharedWith(text: string): Promise<string> {
    const thread = await openThread();
    await share(thread, { document: { path: 'doc.yaml', text } });
    return thread;
  }
  const textOf = async (thread: string) =>
    ((await tool(thread, 'assistant_context', {})).result as { document: { text: string }; revision: number });

  it('applies edits in order, each against the text the one before produced', async () => {
    const thread = await sharedWith('a: 1\nb: 2\n');
    const result = await tool(thread, 'assistant_document_edit', {
      edits: [
        { old_string: 'a: 1', new_string: 'a: 10' },
        { old_string: 'a: 10\nb', new_string: 'a: 10\nc' },
      ],
    });
    expect(result.result).toEqual({ applied: 2, revision: 2, path: 'doc.yaml' });
    expect((await textOf(thread)).document.text).toBe('a: 10\nc: 2\n');
  });

  it.each([
    ['zero matches', [{ old_string: 'nope', new_string: 'x' }], /^edit 1: old_string does not occur/],
    ['several matches', [{ old_string: ': 1', new_string: ': 3' }], /^edit 1: old_string occurs more than once/],
    ['a later edit failing', [{ old_string: 'a: 1', new_string: 'a: 5' }, { old_string: 'a: 1', new_string: 'a: 6' }], /^edit 2: /],
  ])('fails the whole batch on %s, leaving text and revision as they were', async (_what, edits, message) => {
    const thread = await sharedWith('a: 1\nb: 1\n');
    const outcome = await tool(thread, 'assistant_document_edit', { edits });
    expect(outcome.is_error).toBe(true);
    expect((outcome.result as { error: string }).error).toMatch(message);
    expect(await textOf(thread)).toMatchObject({ document: { text: 'a: 1\nb: 1\n' }, revision: 1 });
  });

  it('edits multi-byte and CRLF text exactly', async () => {
    const thread = await sharedWith('name: café ☕\r\nport: 1\r\n');
    const outcome = await tool(thread, 'assistant_document_edit', { edits: [{ old_string: 'café ☕\r\nport: 1', new_string: 'crème 🍰\r\nport: 2' }] });
    expect(outcome.is_error).toBe(false);
    expect((await textOf(thread)).document.text).toBe('name: crème 🍰\r\nport: 2\r\n');
  });

  it('says so when no document is shared', async () => {
    const thread = await openThread();
    const outcome = await tool(thread, 'assistant_document_edit', { edits: [{ old_string: 'a', new_string: 'b' }] });
    expect(outcome.result).toEqual({ error: 'the operator has no document open in the editor; ask them to open one' });
  });
});

describe('assistant_document_check', () => {
  it('checks the shared text for the thread’s environment', async () => {
    const thread = await openThread('production');
    await share(thread, { document: { path: 'app.yaml', text: 'service: shop\nport: "80"\ndb: ${secret:NOT_THERE}\n' } });
    const outcome = await tool(thread, 'assistant_document_check', {});
    expect(outcome.result).toEqual({
      ok: false,
      diagnostics: [
        { line: 2, column: 7, message: expect.stringContaining('port') },
        { line: 3, column: 5, message: 'secret NOT_THERE is not set in this environment; set it with set_secret or remove the reference' },
      ],
    });
    await share(thread, { document: { path: 'app.yaml', text: 'service: shop\nport: 80\ndb: ${secret:DATABASE_URL}\n' }, base_revision: 1 });
    expect((await tool(thread, 'assistant_document_check', {})).result).toEqual({ ok: true, diagnostics: [] });
  });
});

describe('a session credential', () => {
  it('reaches its own thread’s context, and nothing else', async () => {
    const thread = await openThread();
    const other = await openThread();
    const minted = await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`);
    expect(minted.status).toBe(201);
    const { token, expires_at } = minted.body as { token: string; expires_at: string };
    expect(token).toMatch(/^aion_ses_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(11.9 * 3600 * 1000);
    const session = client(server.url, token);

    expect((await session.get(`/api/v1/assistant/threads/${thread}/context`)).status).toBe(200);
    expect((await session.put(`/api/v1/assistant/threads/${thread}/context`, { url: '/x' })).status).toBe(200);
    expect((await session.get(`/api/v1/assistant/threads/${other}/context`)).status).toBe(404);
    expect((await session.put(`/api/v1/assistant/threads/${other}/context`, { url: '/x' })).status).toBe(404);

    const refused = [
      session.post(`/api/v1/assistant/threads/${thread}/proposals/accept-all`),
      session.post(`/api/v1/assistant/threads/${thread}/proposals/00000000-0000-4000-8000-000000000000/accept`),
      session.post(`/api/v1/assistant/threads/${thread}/proposals/00000000-0000-4000-8000-000000000000/reject`),
      session.post(`/api/v1/assistant/threads/${thread}/session-credential`),
      session.post('/api/v1/tokens', { name: 'escalate' }),
      session.delete(`/api/v1/assistant/threads/${thread}`),
      session.get(`/api/v1/assistant/threads/${thread}`),
      session.post(`/api/v1/assistant/threads/${thread}/messages`, { text: 'hi' }),
      session.post('/api/v1/assistant/tools/list_projects', {}),
      session.get('/api/v1/projects'),
    ];
    for (const answer of await Promise.all(refused)) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'bad token' });
    }
    expect((await ada.get(`/api/v1/assistant/threads/${thread}`)).status).toBe(200);
  });

  it('expires after its twelve hours', async () => {
    const thread = await openThread();
    const { token } = (await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string };
    await server.services.db.update(tokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tokens.hash, hashToken(token)));
    // Its time is up (moved into the past in the store): refused like a revoked token.
    const answer = await request(server.url, 'GET', `/api/v1/assistant/threads/${thread}/context`, { token });
    expect(answer.status).toBe(401);
  });

  it('is revoked with its thread', async () => {
    const thread = await openThread();
    const { token } = (await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string };
    expect((await request(server.url, 'GET', `/api/v1/assistant/threads/${thread}/context`, { token })).status).toBe(200);
    expect((await ada.delete(`/api/v1/assistant/threads/${thread}`)).status).toBe(204);
    const after = await request(server.url, 'GET', `/api/v1/assistant/threads/${thread}/context`, { token });
    expect(after.status).toBe(401);
  });
});

describe('the built-in assistant', () => {
  it('gets the three tools when its thread shares context', async () => {
    const thread = await openThread();
    const before = await ada.post(`/api/v1/assistant/threads/${thread}/messages`, { text: '/tool assistant_context' });
    expect((before.body as { messages: { text: string }[] }).messages.at(-1)?.text).toMatch(/^assistant_context: error: no such tool/);
    await share(thread, { document: { path: 'app.yaml', text: 'port: 1\n' } });
    const after = await ada.post(`/api/v1/assistant/threads/${thread}/messages`, {
      text: '/tool assistant_document_edit {"edits": [{"old_string": "port: 1", "new_string": "port: 2"}]}\n/tool assistant_document_check',
    });
    expect((after.body as { messages: { text: string }[] }).messages.at(-1)?.text).toBe('assistant_document_edit: ok\nassistant_document_check: ok');
    expect((await ada.get(`/api/v1/assistant/threads/${thread}/context`)).body).toMatchObject({ revision: 2, document: { text: 'port: 2\n' } });
  });
});

describe('closing the server', () => {
  it('answers a held context wait at once instead of waiting it out', async () => {
    const closing = await startTestServer('pglite', { demo: true });
    const owner = client(closing.url, closing.demoTokens.ada ?? '');
    const id = ((await owner.post('/api/v1/assistant/threads', { project: 'shop' })).body as { id: string }).id;
    const held = owner.get(`/api/v1/assistant/threads/${id}/context?after=0&wait=60`);
    await expect.poll(() => closing.services.changes.waiting).toBe(1);
    const started = Date.now();
    await closing.stop();
    expect((await held).body).toEqual({ shared: false });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
