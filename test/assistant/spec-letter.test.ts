// The spec, to the letter (issue 19): opening a thread answers no 422, the
// list is every thread, OpenAPI says what the spec says of ids and bodies, a
// proposal that can no longer run never holds its thread, and a read outside
// the thread's scope is marked on the answer as a write's proposal is; a
// proposal's result is present once decided, and the seed's types are the
// OpenAPI components by their own names (issue 35).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperator, type Operator } from '../../src/access/operators.js';
import { messages } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { whileTurnRunsElsewhere } from '../helpers/running-turn.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client;
let adaOperator: Operator;

interface Thread {
  id: string;
  page: string;
  state: string;
  messages: { id: number; role: string; text: string }[];
  proposals: { id: string; status: string; message_id: number; result?: Record<string, unknown> }[];
}

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  adaOperator = await findOperator(server.services.db, 'ada');
});
afterAll(() => server.stop());

async function open(body: object = { project: 'shop', environment: 'staging' }): Promise<Thread> {
  const answer = await ada.post('/api/v1/assistant/threads', body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

const thread = async (id: string) => (await ada.get(`/api/v1/assistant/threads/${id}`)).body as Thread;

describe('POST /assistant/threads answers no 422', () => {
  it('a project over 200 characters or holding a NUL is no such project: 404', async () => {
    const long = 'x'.repeat(201);
    expect(await ada.post('/api/v1/assistant/threads', { project: long })).toMatchObject({ status: 404, body: { error: `no such project: ${long}` } });
    expect(await ada.post('/api/v1/assistant/threads', { project: 'sh\u0000op' })).toMatchObject({
      status: 404,
      body: { error: 'no such project: sh\uFFFDop' },
    });
  });

  it('an environment no environment can have is a 404, with or without a project', async () => {
    const long = 'e'.repeat(300);
    expect(await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: long })).toMatchObject({
      status: 404,
      body: { error: `no such environment: ${long} in shop` },
    });
    expect(await ada.post('/api/v1/assistant/threads', { environment: 'st\u0000ging' })).toMatchObject({ status: 404 });
  });

  it('an environment without a project is no such project: 404, whatever its name', async () => {
    for (const environment of ['staging', 'nope', 'e'.repeat(300)]) {
      expect(await ada.post('/api/v1/assistant/threads', { environment })).toMatchObject({
        status: 404,
        body: { error: `no such project: the environment ${environment} belongs to a project; name it too, or name no environment` },
      });
    }
    // No project and no environment is a thread of no project, as the spec allows.
    expect((await ada.post('/api/v1/assistant/threads', { environment: null })).status).toBe(200);
  });

  it('keeps the page, free text, cut to 2000 characters and storable', async () => {
    expect((await open({ project: 'shop', page: 'p'.repeat(3000) })).page).toBe('p'.repeat(2000));
    expect((await open({ project: 'shop', page: '/a\u0000b\ud800' })).page).toBe('/a\uFFFDb\uFFFD');
  });
});

describe('GET /assistant/threads', () => {
  it("lists every one of this operator's threads without a limit, and pages when asked", async () => {
    const created = await ada.post('/api/v1/operators', { name: 'many-threads' });
    const many = client(server.url, (created.body as { token: { token: string } }).token.token);
    const opened: string[] = [];
    for (let i = 0; i < 55; i++) opened.push(((await many.post('/api/v1/assistant/threads', { page: `/p${i}` })).body as Thread).id);
    const all = (await many.get('/api/v1/assistant/threads')).body as Thread[];
    expect(all.map((t) => t.id)).toEqual([...opened].reverse());
    const page = (await many.get('/api/v1/assistant/threads?limit=20')).body as Thread[];
    expect(page.map((t) => t.id)).toEqual([...opened].reverse().slice(0, 20));
  });
});

describe('OpenAPI', () => {
  type Operation = { parameters?: { name: string; in: string; schema: { format?: string } }[]; requestBody?: { required?: boolean } };
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    paths = ((await ada.get('/api/v1/openapi.json')).body as { paths: typeof paths }).paths;
  });

  it('publishes every id and proposal_id path parameter as a uuid', () => {
    const ids = Object.values(paths)
      .flatMap((methods) => Object.values(methods))
      .flatMap((operation) => operation.parameters ?? [])
      .filter((p) => p.in === 'path' && (p.name === 'id' || p.name === 'proposal_id'));
    expect(ids.length).toBeGreaterThan(10);
    for (const parameter of ids) expect(parameter.schema.format, parameter.name).toBe('uuid');
  });

  it('requires a request body only where one must name something', () => {
    expect(paths['/api/v1/assistant/threads']?.post?.requestBody?.required).toBe(false);
    expect(paths['/api/v1/assistant/tools/{name}']?.post?.requestBody?.required).toBe(false);
    expect(paths['/api/v1/assistant/threads/{id}/messages']?.post?.requestBody?.required).toBe(true);
  });

  it('still answers a malformed id with the route’s 404', async () => {
    expect(await ada.get('/api/v1/assistant/threads/not-a-uuid')).toMatchObject({ status: 404, body: { error: 'no such thread: not-a-uuid' } });
  });
});

describe("a proposal's result", () => {
  it('is absent while it waits and present once decided: the result on an accept, {error} on a rejection', async () => {
    const { id } = await open();
    await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/tool set_secret {"name": "KEPT", "value": "v"}' });
    const [waiting] = (await thread(id)).proposals;
    expect(waiting?.status).toBe('pending');
    expect(waiting).not.toHaveProperty('result');
    const accepted = await ada.post(`/api/v1/assistant/threads/${id}/proposals/${waiting?.id}/accept`);
    expect((accepted.body as Thread).proposals[0]).toMatchObject({ status: 'accepted', result: { secret: { name: 'KEPT', version: 1 } } });
    await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/tool set_secret {"name": "DROPPED", "value": "v"}' });
    const dropped = (await thread(id)).proposals[1];
    expect(dropped).not.toHaveProperty('result');
    const rejected = await ada.post(`/api/v1/assistant/threads/${id}/proposals/${dropped?.id}/reject`);
    expect((rejected.body as Thread).proposals[1]).toMatchObject({ status: 'rejected', result: { error: 'rejected by ada' } });
  });
});

describe('a proposal that can no longer run', () => {
  /** A write an agent attached to the thread calls while a turn runs on another server: a proposal on an answer of its own. */
  const agentProposes = (threadId: string, name: string) =>
    whileTurnRunsElsewhere(server.services.db, threadId, () => server.services.assistant.agentCall(adaOperator, threadId, 'set_secret', { name, value: 'v' }, {}));

  it('is failed with the reason the moment a newer answer replaces it, so the thread waits only on what can run', async () => {
    const { id } = await open();
    // The built-in assistant's proposal, then an attached agent's on an answer of its own.
    await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/tool set_secret {"name": "FIRST", "value": "v"}' });
    await agentProposes(id, 'SECOND');
    const [first, second] = (await thread(id)).proposals;
    expect(first).toMatchObject({ status: 'failed', result: { error: 'this proposal is no longer executable: a newer answer replaced it' } });
    expect(second?.status).toBe('pending');
    const accepted = await ada.post(`/api/v1/assistant/threads/${id}/proposals/${first?.id}/accept`);
    expect(accepted).toMatchObject({ status: 409, body: { error: 'this proposal was already failed' } });
    expect((await ada.post(`/api/v1/assistant/threads/${id}/proposals/${second?.id}/reject`)).body).toMatchObject({ state: 'idle' });
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say go on' })).status).toBe(200);
  });

  it('is failed with the reason when an accept finds it no longer executable (one left waiting before this was done)', async () => {
    const { id } = await open();
    await agentProposes(id, 'LEFT_WAITING');
    // What a store written before this fix may hold: a newer answer beside a proposal still waiting.
    await server.services.db.insert(messages).values({ threadId: id, role: 'assistant', text: 'later' });
    const [waiting] = (await thread(id)).proposals;
    expect(waiting?.status).toBe('pending');
    const accepted = await ada.post(`/api/v1/assistant/threads/${id}/proposals/${waiting?.id}/accept`);
    expect(accepted).toMatchObject({ status: 409, body: { error: 'this proposal is no longer executable: a newer answer replaced it' } });
    const after = await thread(id);
    expect(after.state).toBe('idle');
    expect(after.proposals[0]).toMatchObject({ status: 'failed', result: { error: 'this proposal is no longer executable: a newer answer replaced it' } });
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say go on' })).status).toBe(200);
  });
});

describe('a read outside the thread’s scope', () => {
  it('is marked on the answer, as a write’s proposal is', async () => {
    const { id } = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, {
      text: '/tool list_secrets {"environment": "production"}\n/tool list_secrets\n/tool set_secret {"environment": "production", "name": "X", "value": "v"}',
    });
    const answered = answer.body as Thread & { proposals: { rows: { k: string; v: string }[] }[] };
    expect(answered.messages.at(-1)?.text).toBe(
      "list_secrets: ok\nlist_secrets: ok\nset_secret: proposed\n\nNote: list_secrets read production, outside this thread's environment staging.",
    );
    expect(answered.proposals[0]?.rows).toContainEqual({ k: 'note', v: "acts on production, outside this thread's environment staging" });
  });

  it('leaves an answer whose reads stayed in scope as it was', async () => {
    const { id } = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/tool list_secrets {"environment": "staging"}' });
    expect((answer.body as Thread).messages.at(-1)?.text).toBe('list_secrets: ok');
  });
});

describe("the OpenAPI document's error statuses", () => {
  /** Each spec route's table, status by status, in the spec's own words (spec/assistant-and-tools.md). */
  const SEED: [string, string, Record<number, string>][] = [
    ['get', '/api/v1/assistant/status', { 401: 'Bad token' }],
    ['get', '/api/v1/assistant/threads', { 401: 'Bad token' }],
    ['post', '/api/v1/assistant/threads', { 401: 'Bad token', 404: 'No such project' }],
    ['get', '/api/v1/assistant/threads/{id}', { 401: 'Bad token', 404: 'No such thread' }],
    ['delete', '/api/v1/assistant/threads/{id}', { 401: 'Bad token', 404: 'No such thread' }],
    [
      'post',
      '/api/v1/assistant/threads/{id}/messages',
      {
        401: 'Bad token',
        404: 'No such thread',
        409: 'A proposal is still waiting for a decision',
        422: 'Empty or oversized text',
        429: 'Too many assistant messages from this operator',
        503: 'No model is configured, or the provider did not answer',
      },
    ],
    ['post', '/api/v1/assistant/threads/{id}/proposals/accept-all', { 401: 'Bad token', 404: 'No such thread' }],
    ['post', '/api/v1/assistant/threads/{id}/proposals/{proposal_id}/accept', { 401: 'Bad token', 404: 'No such thread or proposal', 409: 'Already decided, or no longer executable' }],
    ['post', '/api/v1/assistant/threads/{id}/proposals/{proposal_id}/reject', { 401: 'Bad token', 404: 'No such thread or proposal', 409: 'Already decided' }],
    ['get', '/api/v1/assistant/tools', { 401: 'Bad token' }],
    ['post', '/api/v1/assistant/tools/{name}', { 401: 'Bad token', 404: 'No such tool', 422: "The input does not match the tool's schema" }],
  ];

  it.each(SEED)('%s %s says what each status of the seed means, in its words', async (method, path, meanings) => {
    const document = (await ada.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    const responses = document.paths[path]?.[method]?.responses ?? {};
    for (const [status, meaning] of Object.entries(meanings)) expect(responses[status]?.description, `${method} ${path} ${status}`).toBe(meaning);
  });
});

describe("the OpenAPI document's component names", () => {
  type Schema = { $ref?: string; type?: string | string[]; items?: Schema; properties?: Record<string, Schema>; required?: string[] };
  type Operation = { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }> };
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  beforeAll(async () => {
    document = (await ada.get('/api/v1/openapi.json')).body as typeof document;
  });
  const ref = (name: string) => `#/components/schemas/${name}`;

  /** The seed's types and the fields each lists (spec/assistant-and-tools.md, "Types"). */
  const TYPES: Record<string, string[]> = {
    AssistantStatusResponse: ['configured', 'model', 'sentence'],
    ThreadResponse: ['created_at', 'environment', 'id', 'messages', 'page', 'project', 'proposals', 'role', 'state', 'title', 'updated_at'],
    OpenThreadBody: ['environment', 'page', 'project'],
    PostMessageBody: ['text'],
    ToolsResponse: ['tools'],
    ToolCallResponse: ['is_error', 'result', 'tool'],
    ProposalResponse: ['decided_at', 'environment', 'id', 'message_id', 'permission', 'project', 'result', 'rows', 'status', 'tag', 'title', 'tool'],
    ThreadMessage: ['at', 'id', 'role', 'stop_reason', 'text'],
    ToolDescriptor: ['allowed', 'description', 'input_schema', 'name', 'permission', 'tag'],
    ProposalRow: ['k', 'v'],
  };

  it.each(Object.entries(TYPES))('has the seed type %s as a component, with every field the seed lists', (name, fields) => {
    const component = document.components.schemas[name];
    expect(component, name).toBeDefined();
    expect(Object.keys(component?.properties ?? {})).toEqual(expect.arrayContaining(fields));
  });

  it('names the seed types inside one another by $ref', () => {
    const { ThreadResponse, ProposalResponse, ToolsResponse } = document.components.schemas;
    expect(ThreadResponse?.properties?.messages?.items?.$ref).toBe(ref('ThreadMessage'));
    expect(ThreadResponse?.properties?.proposals?.items?.$ref).toBe(ref('ProposalResponse'));
    expect(ProposalResponse?.properties?.rows?.items?.$ref).toBe(ref('ProposalRow'));
    expect(ToolsResponse?.properties?.tools?.items?.$ref).toBe(ref('ToolDescriptor'));
  });

  /** Each seed route's body and 200 as the seed names them: [method, path, body, answer]; an array answer is `[name]`. */
  const ROUTES: [string, string, string | null, string | [string]][] = [
    ['get', '/api/v1/assistant/status', null, 'AssistantStatusResponse'],
    ['get', '/api/v1/assistant/threads', null, ['ThreadResponse']],
    ['post', '/api/v1/assistant/threads', 'OpenThreadBody', 'ThreadResponse'],
    ['get', '/api/v1/assistant/threads/{id}', null, 'ThreadResponse'],
    ['post', '/api/v1/assistant/threads/{id}/messages', 'PostMessageBody', 'ThreadResponse'],
    ['post', '/api/v1/assistant/threads/{id}/proposals/accept-all', null, 'ThreadResponse'],
    ['post', '/api/v1/assistant/threads/{id}/proposals/{proposal_id}/accept', null, 'ThreadResponse'],
    ['post', '/api/v1/assistant/threads/{id}/proposals/{proposal_id}/reject', null, 'ThreadResponse'],
    ['get', '/api/v1/assistant/tools', null, 'ToolsResponse'],
    ['post', '/api/v1/assistant/tools/{name}', null, 'ToolCallResponse'],
  ];

  it.each(ROUTES)('%s %s takes and answers the seed types by name, its 200 "Done"', (method, path, body, answer) => {
    const operation = document.paths[path]?.[method];
    const done = operation?.responses['200'];
    expect(done?.description).toBe('Done');
    const schema = done?.content?.['application/json']?.schema;
    if (Array.isArray(answer)) expect(schema).toMatchObject({ type: 'array', items: { $ref: ref(answer[0]) } });
    else expect(schema).toEqual({ $ref: ref(answer) });
    if (body) expect(operation?.requestBody?.content['application/json']?.schema).toEqual({ $ref: ref(body) });
  });

  it('says a deleted thread is "Deleted" (204), as the seed does', () => {
    expect(document.paths['/api/v1/assistant/threads/{id}']?.delete?.responses['204']?.description).toBe('Deleted');
  });

  it('still requires the message body, which names its text', () => {
    expect(document.paths['/api/v1/assistant/threads/{id}/messages']?.post?.requestBody).toMatchObject({ required: true });
    expect(document.paths['/api/v1/assistant/threads']?.post?.requestBody).toMatchObject({ required: false });
  });
});
