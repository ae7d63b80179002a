// What the console's conversations need of the server beyond the spec: a
// short title made from the first message, renaming (PATCH …/threads/{id},
// each bad input its status and sentence), and a built-in answer's tool calls
// with their input and result, streamed and stored alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortTitle } from '../../src/assistant/thread-title.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { followTurn } from '../helpers/sse.js';

let server: TestServer;
let ada: Client;
let adaToken: string;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  adaToken = server.demoTokens.ada ?? '';
  ada = client(server.url, adaToken);
});
afterAll(() => server.stop());

interface ToolCall {
  id: string;
  title: string;
  kind: string;
  status: string;
  input?: string;
  result?: string;
}

interface Thread {
  id: string;
  title: string;
  updated_at: string;
  messages: { id: number; role: string; text: string; tool_calls?: ToolCall[] }[];
}

async function open(): Promise<Thread> {
  const answer = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

const rename = (id: string, body: unknown, token: string | null = adaToken, rawBody?: string) =>
  request(server.url, 'PATCH', `/api/v1/assistant/threads/${id}`, rawBody === undefined ? { token, body } : { token, rawBody, headers: { 'content-type': 'application/json' } });

describe('a short title from the first message', () => {
  it('is from its first line with words, without Markdown marks, cut at a word near 60 characters', () => {
    expect(shortTitle('\n\n  ## Why   is staging slow?\nmore')).toBe('Why is staging slow?');
    expect(shortTitle('- roll back production')).toBe('roll back production');
    const long = 'Please look at the deployments of the shop on production and tell me what changed since Monday';
    const title = shortTitle(long);
    expect(title).toBe('Please look at the deployments of the shop on production and…');
    expect(title.length).toBeLessThanOrEqual(61);
    expect(shortTitle('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
  });

  it('is the first sentence, outside code blocks, with inline Markdown as its words', () => {
    expect(shortTitle('Deploy r5 to **staging**. Then check the logs and tell me what they say.')).toBe('Deploy r5 to staging');
    expect(shortTitle('Is v1.2 live on staging? It was yesterday.')).toBe('Is v1.2 live on staging?');
    expect(shortTitle('```yaml\nport: 1\n```\nWhy does this fail? It did not before.')).toBe('Why does this fail?');
    expect(shortTitle('See [the flags](https://example.test/flags) in `flags.yaml`, please')).toBe('See the flags in flags.yaml, please');
    expect(shortTitle('rename snake_case_name to foo_bar')).toBe('rename snake_case_name to foo_bar');
    // Only code: its first line.
    expect(shortTitle('```\nkubectl get pods\n```')).toBe('kubectl get pods');
  });

  it('is set by the first message only', async () => {
    const thread = await open();
    await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '# Check the flags\n/say ok' });
    await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/say second' });
    expect(((await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread).title).toBe('Check the flags');
  });
});

describe('PATCH /api/v1/assistant/threads/{id}', () => {
  it('200 renames, spaces collapsed, without moving the thread in the list; a first message keeps the name', async () => {
    const older = await open();
    await ada.post(`/api/v1/assistant/threads/${older.id}/messages`, { text: '/say first' });
    const newer = await open();
    const before = (await ada.get(`/api/v1/assistant/threads/${older.id}`)).body as Thread;

    const answer = await rename(older.id, { title: '  Staging\tflags \n review ' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: older.id, title: 'Staging flags review', updated_at: before.updated_at });
    const listed = ((await ada.get('/api/v1/assistant/threads')).body as Thread[]).map((t) => t.id);
    expect(listed.indexOf(newer.id)).toBeLessThan(listed.indexOf(older.id));

    expect((await rename(newer.id, { title: 'Named before a word' })).status).toBe(200);
    await ada.post(`/api/v1/assistant/threads/${newer.id}/messages`, { text: '/say hello' });
    expect(((await ada.get(`/api/v1/assistant/threads/${newer.id}`)).body as Thread).title).toBe('Named before a word');
  });

  it('422 with a sentence for an empty, too long, missing, mistyped or unstorable title, or another field', async () => {
    const { id } = await open();
    const cases: [unknown, RegExp][] = [
      [{ title: '' }, /^the title is empty; give the conversation a few words$/],
      [{ title: ' \n\t ' }, /^the title is empty/],
      [{ title: 'x'.repeat(81) }, /^the title is 81 characters long; keep it to 80$/],
      [{}, /^body must have required property 'title'$/],
      [{ title: 7 }, /^body\.title must be string$/],
      [{ title: 'a\u0000b' }, /^body\.title /],
      [{ title: 'ok', extra: 1 }, /^body has an unknown property extra; remove it$/],
    ];
    for (const [body, sentence] of cases) {
      const answer = await rename(id, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect((answer.body as { error: string }).error).toMatch(sentence);
    }
    expect(((await ada.get(`/api/v1/assistant/threads/${id}`)).body as Thread).title).toBe('');
    // 80 characters is the limit, not past it.
    expect((await rename(id, { title: 'y'.repeat(80) })).status).toBe(200);
  });

  it('400 for a body that is not JSON, 401 for a bad token, 404 for no such thread', async () => {
    const { id } = await open();
    const broken = await rename(id, undefined, adaToken, '{"title": ');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: 'the request body is not valid JSON; send a JSON object' });
    expect(await rename(id, { title: 'x' }, null)).toMatchObject({ status: 401, body: { error: 'bad token' } });
    expect(await rename(id, { title: 'x' }, 'aion_not-a-token')).toMatchObject({ status: 401 });

    const olive = await rename(id, { title: 'not yours' }, server.demoTokens.olive ?? '');
    expect(olive).toMatchObject({ status: 404, body: { error: `no such thread: ${id}` } });
    expect(await rename('not-a-uuid', { title: 'x' })).toMatchObject({ status: 404, body: { error: 'no such thread: not-a-uuid' } });
    expect((await ada.delete(`/api/v1/assistant/threads/${id}`)).status).toBe(204);
    expect(await rename(id, { title: 'gone' })).toMatchObject({ status: 404, body: { error: `no such thread: ${id}` } });
  });

  it('is published in the OpenAPI document with its statuses', async () => {
    const spec = (await ada.get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; requestBody: unknown }>>;
    };
    const patch = spec.paths['/api/v1/assistant/threads/{id}']?.patch;
    expect(patch?.operationId).toBe('renameThread');
    expect(Object.keys(patch?.responses ?? {}).sort()).toEqual(['200', '400', '401', '404', '413', '415', '422']);
    expect(JSON.stringify(patch?.requestBody)).toContain('"title"');
  });

  it('is announced to the operator’s tabs as an update of that thread', async () => {
    const { id } = await open();
    const abort = new AbortController();
    const stream = await fetch(`${server.url}/api/v1/changes`, { headers: { authorization: `Bearer ${adaToken}` }, signal: abort.signal });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    try {
      expect((await rename(id, { title: 'Heard elsewhere' })).status).toBe(200);
      let read = '';
      while (!read.includes(`{"thread":"${id}","what":"updated"}`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the change stream ended');
        read += decoder.decode(value, { stream: true });
      }
    } finally {
      abort.abort();
    }
  });
});

describe("a built-in answer's tool calls", () => {
  it('are stored and streamed with their input and result, a proposed write marked, a long result cut', async () => {
    const { id } = await open();
    const follower = followTurn(server.url, adaToken, id);
    await follower.open;
    const secret = { project: 'shop', environment: 'staging', name: 'SHOWN_FLAG', value: 'on' };
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, {
      text: ['/tool read_document {"project":"shop","path":"app.yaml"}', `/tool set_secret ${JSON.stringify(secret)}`, '/tool no_such_tool'].join('\n'),
    });
    expect(answer.status, answer.text).toBe(200);
    const stored = (answer.body as Thread).messages.at(-1)?.tool_calls ?? [];
    expect(stored.map(({ title, kind, status }) => [title, kind, status])).toEqual([
      ['read_document', 'read', 'completed'],
      ['set_secret', 'edit', 'proposed'],
      ['no_such_tool', 'read', 'failed'],
    ]);
    const [read, write, unknown] = stored;
    expect(JSON.parse(read?.input ?? '')).toEqual({ project: 'shop', path: 'app.yaml' });
    expect(JSON.parse(read?.result ?? '')).toMatchObject({ path: 'app.yaml', revision: expect.any(Number) });
    expect(JSON.parse(write?.input ?? '')).toMatchObject({ name: 'SHOWN_FLAG' });
    expect(JSON.parse(write?.result ?? '')).toMatchObject({ proposed: true });
    expect(unknown?.result).toMatch(/no_such_tool/);

    // The live view of the turn said the same (the store writes the input's JSON in its own key order).
    const live = (await follower.done).flatMap((e) => (e.data.type === 'tool_call' ? [e.data.tool_call] : []));
    const comparable = (calls: ToolCall[]) => calls.map((call) => ({ ...call, input: JSON.parse(call.input ?? '') as unknown }));
    expect(comparable(live)).toEqual(comparable(stored));
  });

  it('show at most 4000 characters of a long input, saying how long it was', async () => {
    const { id } = await open();
    const long = { project: 'shop', path: 'app.yaml', padding: 'p'.repeat(6000) };
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/tool read_document ${JSON.stringify(long)}` });
    const [call] = (answer.body as Thread).messages.at(-1)?.tool_calls ?? [];
    expect(call?.input).toMatch(/^\{.{3990,4000}… \[cut: \d{4} characters in all\]$/s);
  });

  it('leave an answer without tool calls as the spec has it', async () => {
    const { id } = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say plain' });
    expect(Object.keys((answer.body as Thread).messages.at(-1) ?? {}).sort()).toEqual(['at', 'id', 'role', 'stop_reason', 'text']);
  });
});
