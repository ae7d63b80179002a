// The conversation's cost with the `anthropic` model, through the real SDK
// against a local Messages API on 127.0.0.1 (DESIGN.md §4 "Cost"): cache
// breakpoints on every call, a prefix that stays byte for byte the same from
// call to call and turn to turn (trimming moves it in steps), usage recorded
// as the API reported it, and parked secrets in no request.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelCalls } from '../../src/store/schema.js';
import { client, request, type Client } from '../helpers/http.js';
import { cachedPrefix, promptOf, PromptCacheModel } from '../helpers/prompt-cache.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS, type StoreKind } from '../helpers/store.js';
import { apiError, message, startMessagesApi, type MessagesApi, type RecordedRequest, type Reply } from './providers/messages-api-server.js';

// The tools and the system prompt take some 2,900 tokens; the history has the rest, some eight turns of the long thread below.
const CONTEXT_TOKENS = 9000;
type Scripted = (request: RecordedRequest) => Reply;

const script: Scripted[] = [];
const reported: Array<{ input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }> = [];
let api: MessagesApi;
let server: TestServer;
let ada: Client;

/** The API's answer, with the usage a real API would report for this request (and remembered for the checks). */
const cache = new PromptCacheModel();
function answer(content: unknown[], stopReason: string): Scripted {
  return (sent) => {
    const served = cache.serve(sent.body);
    const usage = {
      input_tokens: served.uncached,
      output_tokens: 20 + reported.length,
      cache_creation_input_tokens: served.written,
      cache_read_input_tokens: served.read,
    };
    reported.push(usage);
    const reply = message(content, stopReason);
    return { ...reply, body: { ...(reply.body as object), usage } };
  };
}
const text = (words: string) => answer([{ type: 'text', text: words }], 'end_turn');
const toolUse = (id: string, name: string, input: unknown) => answer([{ type: 'tool_use', id, name, input }], 'tool_use');

beforeAll(async () => {
  api = await startMessagesApi((sent) => (script.shift() ?? text('nothing scripted'))(sent));
});
afterAll(async () => {
  await api.close();
});

/** A server with the `anthropic` model on the local API; each describe has its own. */
async function serve(kind: StoreKind): Promise<void> {
  server = await startTestServer(kind, {
    demo: true,
    env: {
      AION_MODEL: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test-key-for-the-cache',
      ANTHROPIC_BASE_URL: api.baseURL,
      AION_ANTHROPIC_MODEL: 'claude-test',
      AION_CONTEXT_TOKENS: String(CONTEXT_TOKENS),
      AION_ASSISTANT_RATE: '1000/1m',
    },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
}

interface Thread {
  id: string;
  messages: { id: number; role: string; text: string }[];
  proposals: { id: string; status: string }[];
}

async function open(): Promise<Thread> {
  return (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as Thread;
}

async function send(thread: Thread, words: string, status = 200): Promise<Thread> {
  const answered = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: words });
  expect(answered.status, JSON.stringify(answered.body)).toBe(status);
  return answered.body as Thread;
}

describe('prompt caching', () => {
  beforeAll(() => serve('pglite'));
  afterAll(() => server.stop());

  it('marks the last tool, the system prompt and the newest message of every call, never more than four blocks', async () => {
    api.requests.length = 0;
    const thread = await open();
    script.push(toolUse('toolu_m1', 'list_environments', {}), text('Two environments.'));
    await send(thread, 'which environments are there?');
    script.push(text('Staging.'));
    await send(thread, 'which one am I on?');

    expect(api.requests).toHaveLength(3);
    for (const sent of api.requests) {
      const body = sent.body as { tools: { cache_control?: unknown }[]; system: { cache_control?: unknown }[]; messages: { content: { cache_control?: unknown }[] }[] };
      expect(body.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
      expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      const { blocks, marks } = promptOf(sent.body);
      expect(marks.length).toBeLessThanOrEqual(4);
      expect(marks.at(-1)).toBe(blocks.length - 1);
      expect(sent.body && JSON.stringify(sent.body).split('"cache_control"').length - 1).toBe(marks.length);
    }
    // The fourth mark is the previous call's newest block, so its whole prefix is read back however far the new one reaches.
    const prompts = api.requests.map((sent) => promptOf(sent.body));
    for (let k = 1; k < prompts.length; k++) expect(prompts[k]?.marks).toContain(prompts[k - 1]?.marks.at(-1));
  });

  it("starts each call with the previous call's prefix, byte for byte, within a turn and across turns; trimming moves it in steps", async () => {
    const thread = await open();
    api.requests.length = 0;
    const turns = 20;
    const turnOfCall: number[] = [];
    for (let turn = 1; turn <= turns; turn++) {
      const calls = api.requests.length;
      // Keys in an order the store's jsonb does not keep, and a tool error, replayed from the store next turn.
      script.push(
        toolUse(`toolu_r${turn}`, 'read_document', { project: 'shop', path: 'app.yaml' }),
        toolUse(`toolu_x${turn}`, 'read_document', { path: `missing-${turn}.yaml`, project: 'shop' }),
      );
      if (turn === 3) script.push(toolUse('toolu_w3', 'create_environment', { name: 'cache-qa', protected: false }));
      script.push(text(`Answer ${turn}: app.yaml reads fine.`));
      const answered = await send(thread, `Turn ${turn}: look at app.yaml again. ${'Some context for the question. '.repeat(25)}`);
      turnOfCall.push(...Array.from({ length: api.requests.length - calls }, () => turn));
      if (turn === 3) {
        const proposal = answered.proposals.find((p) => p.status === 'pending');
        expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal?.id}/reject`)).status).toBe(200);
      }
    }

    const prompts = api.requests.map((sent) => promptOf(sent.body));
    const steps: number[] = [];
    for (let k = 1; k < prompts.length; k++) {
      const previous = prompts[k - 1];
      const current = prompts[k];
      if (!previous || !current) throw new Error('no prompt');
      const firstMessage = (p: typeof previous) => p.blocks.find((block) => block.includes('"in":"messages"'));
      if (firstMessage(current) === firstMessage(previous)) {
        expect(current.blocks.join('\n').startsWith(cachedPrefix(previous)), `call ${k + 1} does not start with call ${k}'s prefix`).toBe(true);
      } else {
        // A trim step: the history starts later, tools and system stay the same.
        steps.push(turnOfCall[k] ?? 0);
        const head = (p: typeof previous) => p.blocks.filter((block) => !block.includes('"in":"messages"')).join('\n');
        expect(head(current)).toBe(head(previous));
      }
    }
    // The history was trimmed, in steps: after a step, the next turn keeps the start.
    expect(steps.length, `steps at turns ${steps.join(", ")}`).toBeGreaterThan(1);
    for (const [i, turn] of steps.entries()) if (i > 0) expect(turn - (steps[i - 1] ?? 0), `steps at turns ${steps.join(', ')}`).toBeGreaterThan(1);
    // The whole request of every call stays within the budget (four characters a token).
    for (const sent of api.requests) expect(JSON.stringify(sent.body).length).toBeLessThanOrEqual(CONTEXT_TOKENS * 4);
    // The decision on the proposal reached the model the turn after.
    expect(JSON.stringify(api.requests.map((sent) => sent.body))).toContain('create environment cache-qa (create_environment): rejected');
  });

  it('sends a tool call from the store exactly as it was sent from memory', async () => {
    const thread = await open();
    api.requests.length = 0;
    script.push(toolUse('toolu_k1', 'read_document', { project: 'shop', path: 'app.yaml', revision: 1 }), text('Read.'));
    await send(thread, 'read app.yaml at revision 1');
    script.push(text('Still read.'));
    await send(thread, 'and now?');
    const toolUseOf = (sent: RecordedRequest | undefined) => {
      const body = JSON.stringify(sent?.body);
      const start = body.indexOf('{"type":"tool_use"');
      return body.slice(start, body.indexOf('}}', start) + 2);
    };
    expect(toolUseOf(api.requests[1])).toBe('{"type":"tool_use","id":"toolu_k1","name":"read_document","input":{"path":"app.yaml","project":"shop","revision":1}}');
    expect(toolUseOf(api.requests[2])).toBe(toolUseOf(api.requests[1]));
  });

  it('never sends a parked secret, on any call of any turn', async () => {
    const CANARY = 'canary-7d1c-parked-for-the-cache';
    const thread = await open();
    api.requests.length = 0;
    script.push(toolUse('toolu_s1', 'set_secret', { name: 'CACHED', value: '[secret:1]' }), text('Proposed.'));
    const proposed = await send(thread, `keep <secret>${CANARY}</secret> as CACHED`);
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposed.proposals[0]?.id}/accept`)).status).toBe(200);
    script.push(toolUse('toolu_s2', 'list_secrets', {}), text('It is there.'));
    await send(thread, 'is CACHED set?');
    expect(api.requests.length).toBe(4);
    for (const sent of api.requests) expect(JSON.stringify(sent.body)).not.toContain(CANARY);
    expect(JSON.stringify(api.requests[0]?.body)).toContain('keep [secret:1] as CACHED');
  });
});

describe.each(STORE_KINDS)('usage (%s)', (kind) => {
  beforeAll(() => serve(kind));
  afterAll(() => server.stop());

  const metric = async (kind: string) => {
    const text = (await request(server.url, 'GET', '/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`aion_model_tokens_total{model="claude-test",kind="${kind}"}`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };
  const kinds = ['input', 'output', 'cache_write', 'cache_read'] as const;

  it('stores every call with its turn, failed turns included, and /metrics and the thread show what the API reported', async () => {
    const before = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, await metric(kind)] as const)));
    const thread = await open();
    const first = reported.length;
    script.push(toolUse('toolu_u1', 'list_environments', {}), text('Two.'));
    await send(thread, 'count the environments');
    script.push(text('Yes.'));
    await send(thread, 'sure?');
    // A turn whose second call fails (a 400 is not retried): its first call was billed all the same.
    script.push(toolUse('toolu_u2', 'whoami', {}), () => apiError(400, 'invalid_request_error', 'prompt is too long'));
    await send(thread, 'who am I?', 503);
    const calls = reported.slice(first);
    expect(calls).toHaveLength(4);
    const sum = (key: keyof (typeof calls)[number]) => calls.reduce((total, call) => total + call[key], 0);

    const usage = await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      calls: 4,
      input_tokens: sum('input_tokens'),
      output_tokens: sum('output_tokens'),
      cache_creation_input_tokens: sum('cache_creation_input_tokens'),
      cache_read_input_tokens: sum('cache_read_input_tokens'),
      agent: null,
    });
    expect(sum('cache_read_input_tokens')).toBeGreaterThan(0);

    // In the store: a row a call, the answered turns' with their answer, the failed turn's without.
    const rows = await server.services.db.select().from(modelCalls).where(eq(modelCalls.threadId, thread.id)).orderBy(modelCalls.id);
    const answers = ((await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread).messages
      .filter((m) => m.role === 'assistant')
      .map((m) => m.id);
    expect(rows.map((row) => row.messageId)).toEqual([answers[0], answers[0], answers[1], null]);
    expect(rows.map((row) => [row.model, row.inputTokens, row.outputTokens, row.cacheWriteTokens, row.cacheReadTokens])).toEqual(
      calls.map((call) => ['claude-test', call.input_tokens, call.output_tokens, call.cache_creation_input_tokens, call.cache_read_input_tokens]),
    );

    const after = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, await metric(kind)] as const)));
    expect({
      input: (after.input ?? 0) - (before.input ?? 0),
      output: (after.output ?? 0) - (before.output ?? 0),
      cache_write: (after.cache_write ?? 0) - (before.cache_write ?? 0),
      cache_read: (after.cache_read ?? 0) - (before.cache_read ?? 0),
    }).toEqual({
      input: sum('input_tokens'),
      output: sum('output_tokens'),
      cache_write: sum('cache_creation_input_tokens'),
      cache_read: sum('cache_read_input_tokens'),
    });
  });

  it("is in the OpenAPI document, and answers 404 for another operator's thread and an unknown one, 401 without a token", async () => {
    const openapi = (await request(server.url, 'GET', '/api/v1/openapi.json')).body as { paths: Record<string, { get?: { responses: object } }> };
    expect(Object.keys(openapi.paths['/api/v1/assistant/threads/{id}/usage']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '404']));
    const thread = await open();
    const olive = client(server.url, server.demoTokens.olive ?? '');
    expect((await olive.get(`/api/v1/assistant/threads/${thread.id}/usage`)).status).toBe(404);
    expect((await ada.get('/api/v1/assistant/threads/00000000-0000-4000-8000-000000000000/usage')).status).toBe(404);
    expect((await request(server.url, 'GET', `/api/v1/assistant/threads/${thread.id}/usage`)).status).toBe(401);
    expect((await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`)).body).toEqual({
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      agent: null,
    });
  });

  it('keeps the calls of a deleted thread in the totals', async () => {
    const thread = await open();
    script.push(text('Hello.'));
    await send(thread, 'hello');
    const kept = await server.services.db.select().from(modelCalls).where(eq(modelCalls.threadId, thread.id));
    expect(kept).toHaveLength(1);
    expect((await ada.delete(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(204);
    const orphaned = await server.services.db
      .select()
      .from(modelCalls)
      .where(and(isNull(modelCalls.threadId), eq(modelCalls.id, kept[0]?.id ?? 0)));
    expect(orphaned).toHaveLength(1);
  });
});
