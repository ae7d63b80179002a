// Every status code of the spec's assistant routes, each for its own cause.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { messages } from '../../src/store/schema.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client;
let dev: Client;
const BAD = { error: 'bad token' };

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  dev = client(server.url, server.demoTokens.dev ?? '');
});
afterAll(() => server.stop());

interface Thread {
  id: string;
  state: string;
  role: string;
  messages: { id: number; role: string; text: string; stop_reason: string | null }[];
  proposals: { id: string; status: string; message_id: number; result: Record<string, unknown> }[];
}

async function open(who: Client, body: object = { project: 'shop', environment: 'staging', page: '/projects/shop' }): Promise<Thread> {
  const answer = await who.post('/api/v1/assistant/threads', body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

describe('GET /api/v1/assistant/status', () => {
  it('200 with the configured model', async () => {
    expect((await ada.get('/api/v1/assistant/status')).body).toEqual({ configured: true, model: 'fake', sentence: '' });
  });
  it('401 for a bad token', async () => {
    expect((await request(server.url, 'GET', '/api/v1/assistant/status')).body).toEqual(BAD);
  });
});

describe('threads', () => {
  it('POST opens a thread on the panel’s scope: 200 with every field', async () => {
    const thread = await open(dev);
    expect(thread).toMatchObject({
      project: 'shop',
      environment: 'staging',
      page: '/projects/shop',
      role: 'developer',
      state: 'idle',
      stale_waiting: 0,
      title: '',
      messages: [],
      proposals: [],
      agent: null,
      agent_options: null,
      turn: null,
    });
    expect(Object.keys(thread).sort()).toEqual(
      ['agent', 'agent_options', 'created_at', 'environment', 'id', 'messages', 'page', 'project', 'proposals', 'role', 'stale_waiting', 'state', 'title', 'turn', 'updated_at'].sort(),
    );
  });

  it('POST answers 404 for a project the caller cannot see, 401 for a bad token', async () => {
    const missing = await dev.post('/api/v1/assistant/threads', { project: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'no such project: nope' });
    expect((await request(server.url, 'POST', '/api/v1/assistant/threads', { body: {} })).status).toBe(401);
  });

  it('GET lists only the operator’s own threads, newest first', async () => {
    const first = await open(dev);
    const second = await open(dev);
    const listed = (await dev.get('/api/v1/assistant/threads')).body as Thread[];
    expect(listed.map((t) => t.id).slice(0, 2)).toEqual([second.id, first.id]);
    const others = (await ada.get('/api/v1/assistant/threads')).body as Thread[];
    expect(others.map((t) => t.id)).not.toContain(first.id);
  });

  it('GET and DELETE one thread: 200/204, and 404 for another operator’s or a malformed id', async () => {
    const thread = await open(dev);
    expect((await dev.get(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(200);
    expect((await ada.get(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(404);
    expect((await ada.delete(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(404);
    expect((await dev.get('/api/v1/assistant/threads/not-a-uuid')).body).toEqual({ error: 'no such thread: not-a-uuid' });
    expect((await dev.delete(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(204);
    expect((await dev.get(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(404);
  });
});

describe('POST …/messages', () => {
  it('200: stores the message, answers, titles the thread', async () => {
    const thread = await open(dev);
    const answer = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'hello there' });
    expect(answer.status).toBe(200);
    const body = answer.body as Thread & { title: string };
    expect(body.title).toBe('hello there');
    expect(body.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'hello there'],
      ['assistant', 'fake: hello there'],
    ]);
  });

  it('422 for empty, blank and oversized text', async () => {
    const thread = await open(dev);
    for (const text of ['', '   \n ', 'x'.repeat(8001)]) {
      const answer = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    expect((await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'x'.repeat(8000) })).status).toBe(200);
  });

  it('404 for a thread that is not the caller’s', async () => {
    const thread = await open(ada);
    expect((await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'hi' })).status).toBe(404);
  });

  it('409 while a proposal waits', async () => {
    const thread = await open(dev);
    const proposed = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, {
      text: '/tool create_environment {"name": "qa"}\n/tool write_document {"path": "a.yaml", "text": "a: 1\\n"}',
    });
    const body = proposed.body as Thread;
    // developers may not create environments: that one is refused, never proposed
    expect(body.proposals).toHaveLength(1);
    expect(body.state).toBe('waiting');
    expect(body.messages.at(-1)?.text).toContain('create_environment: error: you need environment:manage on shop; your role there is developer');
    const refused = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'and now?' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'a proposal is still waiting for a decision; accept or reject it first' });
  });

  it('503 when the provider fails; the message is kept and the thread stays usable', async () => {
    const thread = await open(dev);
    const failed = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/fail' });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: expect.stringContaining('your message is kept') });
    const after = (await dev.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(after.messages.map((m) => m.text)).toEqual(['/fail']);
    const again = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'retry' });
    expect(again.status).toBe(200);
  });

  it('429 over the operator’s rate, with Retry-After', async () => {
    const limitedServer = await startTestServer('pglite', { demo: true, env: { AION_ASSISTANT_RATE: '6/1h' } });
    onTestFinished(() => limitedServer.stop());
    const vic = client(limitedServer.url, limitedServer.demoTokens.vic ?? '');
    const thread = await open(vic);
    for (let i = 0; i < 6; i++) {
      expect((await vic.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: `m${i}` })).status).toBe(200);
    }
    const limited = await vic.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'one more' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({ error: expect.stringMatching(/^you sent 6 messages to the assistant in the last hour/) });
    const stored = (await vic.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(stored.messages.some((m) => m.text === 'one more')).toBe(false);
  });
});

describe('proposals', () => {
  async function proposing(who: Client, lines: string[]): Promise<Thread> {
    const thread = await open(who);
    const answer = await who.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: lines.join('\n') });
    expect(answer.status, answer.text).toBe(200);
    return answer.body as Thread;
  }

  it('accept: 200 and the change runs; then 409 already decided; 404 for unknown', async () => {
    const thread = await proposing(ada, ['/tool create_environment {"name": "accepted-env"}']);
    const [proposal] = thread.proposals;
    if (!proposal) throw new Error('no proposal');
    const accepted = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal.id}/accept`);
    expect(accepted.status).toBe(200);
    expect((accepted.body as Thread).proposals[0]).toMatchObject({ status: 'accepted', result: { environment: 'accepted-env' } });
    const again = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal.id}/accept`);
    expect(again.status).toBe(409);
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/00000000-0000-4000-8000-000000000000/accept`)).status).toBe(404);
    expect((await dev.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal.id}/accept`)).status).toBe(404);
  });

  it('reject: 200 and nothing changes; then 409', async () => {
    const thread = await proposing(ada, ['/tool create_environment {"name": "rejected-env"}']);
    const id = thread.proposals[0]?.id ?? '';
    const rejected = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${id}/reject`);
    expect(rejected.status).toBe(200);
    expect((rejected.body as Thread).proposals[0]).toMatchObject({ status: 'rejected', result: { error: 'rejected by ada' } });
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${id}/reject`)).status).toBe(409);
    const envs = (await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] };
    expect(envs.environments.map((e) => e.name)).not.toContain('rejected-env');
  });

  it('409 for a proposal that is no longer executable: a newer answer replaced it', async () => {
    const thread = await proposing(ada, ['/tool create_environment {"name": "stale-env"}']);
    const id = thread.proposals[0]?.id ?? '';
    // A newer answer (as an attached agent's message would be) makes the older proposal stale.
    await server.services.db.insert(messages).values({ threadId: thread.id, role: 'assistant', text: 'newer' });
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${id}/accept`);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: 'this proposal is no longer executable: a newer answer replaced it' });
    const envs = (await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] };
    expect(envs.environments.map((e) => e.name)).not.toContain('stale-env');
  });

  it('accept-all: 200, and 404 for another operator’s thread', async () => {
    const thread = await proposing(ada, ['/tool create_environment {"name": "all-1"}', '/tool create_environment {"name": "all-2"}']);
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
    expect(answer.status).toBe(200);
    expect((answer.body as Thread).proposals.map((p) => p.status)).toEqual(['accepted', 'accepted']);
    expect((answer.body as Thread).state).toBe('idle');
    expect((await dev.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`)).status).toBe(404);
  });

  it('tells the model next turn how each proposal was decided', async () => {
    const thread = await proposing(ada, ['/tool create_environment {"name": "told-env"}']);
    await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
    const next = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool whoami' });
    expect((next.body as Thread).messages.at(-1)?.text).toBe('whoami: ok');
    // the note itself is checked where the provider's requests are visible (anthropic.test.ts)
  });
});

describe('GET /api/v1/assistant/threads, a page at a time', () => {
  it('answers every thread without ?limit=, and pages with ?limit= and ?before=, newest first, each thread once', async () => {
    const created = await ada.post('/api/v1/operators', { name: 'pager' });
    const pager = client(server.url, (created.body as { token: { token: string } }).token.token);
    const opened: string[] = [];
    for (let i = 0; i < 53; i++) opened.push((await open(pager, { page: `/p${i}` })).id);
    // A thread that moves to the top (a message) is listed first.
    await pager.post(`/api/v1/assistant/threads/${opened[0]}/messages`, { text: '/say hi' });
    const newestFirst = [opened[0], ...opened.slice(1).reverse()];

    const first = (await pager.get('/api/v1/assistant/threads')).body as Thread[];
    expect(first.map((t) => t.id)).toEqual(newestFirst);
    expect(first[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const answer = await pager.get(`/api/v1/assistant/threads?limit=20${before ? `&before=${before}` : ''}`);
      expect(answer.status, answer.text).toBe(200);
      const page = answer.body as Thread[];
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(20);
      seen.push(...page.map((t) => t.id));
      before = page.at(-1)?.id;
    }
    expect(seen).toEqual(newestFirst);
  });

  it('refuses a limit out of range (422) and a cursor that names no thread of the caller (404)', async () => {
    expect((await ada.get('/api/v1/assistant/threads?limit=0')).body).toEqual({ error: 'querystring.limit must be >= 1' });
    expect((await ada.get('/api/v1/assistant/threads?limit=201')).body).toEqual({ error: 'querystring.limit must be <= 200' });
    const long = await ada.get(`/api/v1/assistant/threads?before=${'x'.repeat(300)}`);
    expect(long).toMatchObject({ status: 404, body: { error: 'nothing here is named by querystring.before: it must NOT have more than 100 characters' } });
    const theirs = (await open(dev)).id;
    const answer = await ada.get(`/api/v1/assistant/threads?before=${theirs}`);
    expect(answer).toMatchObject({ status: 404, body: { error: `no such thread: ${theirs}` } });
  });

  it('says so in OpenAPI', async () => {
    const spec = (await ada.get('/api/v1/openapi.json')).body as {
      paths: Record<string, { get: { parameters: { name: string; in: string; schema: { default?: number; maximum?: number } }[] } }>;
    };
    const parameters = spec.paths['/api/v1/assistant/threads']?.get.parameters ?? [];
    expect(parameters.map((p) => [p.name, p.in])).toEqual([
      ['limit', 'query'],
      ['before', 'query'],
    ]);
    expect(parameters[0]?.schema).toMatchObject({ maximum: 200 });
    expect(parameters[0]?.schema.default).toBeUndefined();
  });
});

describe('the refused state', () => {
  it('is refused after a refusal, idle after the next answer', async () => {
    const thread = await open(dev);
    const refused = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/refuse' });
    expect((refused.body as Thread).state).toBe('refused');
    expect((refused.body as Thread).messages.at(-1)?.stop_reason).toBe('refusal');
    const next = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'ok' });
    expect((next.body as Thread).state).toBe('idle');
  });

  it('is refused only while the last turn stopped on a refusal: a turn that failed since ends it', async () => {
    const thread = await open(dev);
    await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/refuse' });
    const failed = await dev.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/fail' });
    expect(failed.status).toBe(503);
    const view = (await dev.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(view.messages.at(-1)).toMatchObject({ role: 'user', text: '/fail' });
    expect(view.state).toBe('idle');
  });
});
