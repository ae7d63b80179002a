// The ACP features of 2026 (issue 31), end to end over real HTTP with a real
// spawned `ops demo-agent` (dist/main.js): what an agent reports of its cost,
// its own session continued on another server and closed, its config options
// and modes, and its questions to the operator.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threads } from '../../src/store/schema.js';
import type { Question } from '../../src/wire/question.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, request, type Client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { scratchFolder } from '../helpers/scratch.js';
import { followTurn } from '../helpers/sse.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { POSTGRES_URL } from '../helpers/store.js';

interface OptionValue {
  value: string | boolean;
  name: string;
  refused: string | null;
}
interface Thread {
  id: string;
  agent: string | null;
  messages: { role: string; text: string }[];
  agent_options: { mode: { current: string; values: OptionValue[] } | null; options: { id: string; current: string | boolean; values: OptionValue[] }[] } | null;
}

const METRICS_TOKEN = 'metrics-token-of-the-features-test';
const demoAgent = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env, sandbox: false });

let server: TestServer;
let ada: Client;
/** What the keeper agent was asked (DEMO_AGENT_RECORD), and where it keeps its sessions. */
let record: string;
let kept: string;

beforeAll(async () => {
  const folder = await scratchFolder('agent-features');
  record = path.join(folder, 'received.jsonl');
  kept = await scratchFolder('agent-sessions');
  server = await startTestServer('pglite', {
    demo: true,
    env: {
      AION_AGENTS: JSON.stringify({
        plain: demoAgent(),
        keeper: demoAgent({ DEMO_AGENT_SESSIONS: kept, DEMO_AGENT_RECORD: record }),
        chooser: demoAgent({ DEMO_AGENT_OPTIONS: '1', DEMO_AGENT_MODES: 'default,yolo' }),
      }),
      AION_METRICS_TOKEN: METRICS_TOKEN,
      AION_AGENT_MAX: '50',
      AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1',
    },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(async () => {
  await server.stop();
});

async function openThread(agent: string | null): Promise<Thread> {
  const answer = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', ...(agent ? { agent } : {}) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

async function send(thread: Thread, text: string, expected = 200): Promise<Thread> {
  const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text });
  expect(answer.status, answer.text).toBe(expected);
  return answer.body as Thread;
}

async function metric(line: string): Promise<number | null> {
  const answer = await request(server.url, 'GET', '/metrics', { token: METRICS_TOKEN });
  const found = answer.text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? null : Number(found.slice(line.length + 1));
}

describe('cost and context an agent reports', () => {
  it('stores each turn’s usage_update and prompt-response usage: GET …/usage sums them, the cost counts what each turn added', async () => {
    const thread = await openThread('plain');
    await send(thread, '/usage 1200 200000 0.25 USD\n/tokens 1000 80 30 500 40');
    await send(thread, '/usage 2500 200000 0.40 USD\n/tokens 700 20');
    const usage = await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body).toEqual({
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      agent: {
        name: 'plain',
        reported_turns: 2,
        input_tokens: 1700,
        output_tokens: 100,
        thought_tokens: 30,
        cache_read_input_tokens: 500,
        cache_creation_input_tokens: 40,
        context: { used: 2500, size: 200000 },
        cost: [{ amount: 0.4, currency: 'USD' }],
      },
    });
    expect(await metric('aion_agent_tokens_total{agent="plain",kind="input"}')).toBeGreaterThanOrEqual(1700);
    expect(await metric('aion_agent_cost_total{agent="plain",currency="USD"}')).toBeGreaterThanOrEqual(0.4);
  });

  it('an agent that reports nothing is "not reported" (null), never 0; the built-in assistant has no agent part', async () => {
    const thread = await openThread('plain');
    await send(thread, '/say hello');
    const usage = await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`);
    expect((usage.body as { agent: unknown }).agent).toEqual({
      name: 'plain',
      reported_turns: 0,
      input_tokens: null,
      output_tokens: null,
      thought_tokens: null,
      cache_read_input_tokens: null,
      cache_creation_input_tokens: null,
      context: null,
      cost: null,
    });
    const builtIn = await openThread(null);
    const own = await ada.get(`/api/v1/assistant/threads/${builtIn.id}/usage`);
    expect((own.body as { agent: unknown }).agent).toBeNull();
  });

  it('sums the tokens of each model call an empty message chunk carries (`_meta.usage`, as Qwen Code reports them) into the turn’s', async () => {
    const thread = await openThread('plain');
    await send(thread, '/chunk-tokens 100 10 3 40\n/chunk-tokens 250 20');
    await send(thread, '/chunk-tokens 7 1');
    const usage = (await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`)).body as { agent: Record<string, unknown> };
    expect(usage.agent).toMatchObject({ reported_turns: 2, input_tokens: 357, output_tokens: 31, thought_tokens: 3, cache_read_input_tokens: 40, context: null, cost: null });
    // A prompt response's usage is the turn's whole: it stands over the chunks' sum.
    const other = await openThread('plain');
    await send(other, '/chunk-tokens 100 10\n/tokens 150 12');
    const whole = (await ada.get(`/api/v1/assistant/threads/${other.id}/usage`)).body as { agent: Record<string, unknown> };
    expect(whole.agent).toMatchObject({ reported_turns: 1, input_tokens: 150, output_tokens: 12 });
  });

  it('context without cost: the context is reported, the tokens and cost stay null', async () => {
    const thread = await openThread('plain');
    await send(thread, '/usage 300 1000');
    const usage = (await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`)).body as { agent: Record<string, unknown> };
    expect(usage.agent).toMatchObject({ reported_turns: 1, input_tokens: null, context: { used: 300, size: 1000 }, cost: null });
  });
});

/** What the recording agent was asked, one JSON value a line. */
async function recorded(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}

const lastAnswer = (thread: Thread) => thread.messages.at(-1)?.text ?? '';

describe('the agent’s own history', () => {
  it('resumes the thread’s own session in a new process (session/list, then session/resume), without sending the transcript', async () => {
    const thread = await openThread('keeper');
    await send(thread, '/say first');
    const [row] = await server.services.db.select({ session: threads.agentSession }).from(threads).where(eq(threads.id, thread.id));
    const session = row?.session ?? '';
    expect(session).toMatch(/^demo-/);
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/crash' })).status).toBe(503);
    const again = await send(thread, '/recall');
    // The agent's own session: what it heard before the crash, and no transcript given.
    expect(lastAnswer(again)).toBe('recall: /say first | /crash | /recall');
    const asked = await recorded(record);
    expect(asked).toContainEqual({ resume: session });
    const prompts = asked.filter((entry): entry is { type: string; text: string }[] => Array.isArray(entry));
    expect(JSON.stringify(prompts.at(-1))).not.toContain('Earlier in this conversation');
  });

  it('a session the agent no longer lists is not resumed: a new one gets the transcript', async () => {
    const thread = await openThread('keeper');
    await send(thread, '/say one');
    await server.services.db.update(threads).set({ agentSession: 'demo-forgotten' }).where(eq(threads.id, thread.id));
    await server.services.agents.stop(thread.id);
    const again = await send(thread, '/recall');
    expect(lastAnswer(again)).toMatch(/^recall: \/say one \| \/recall$/);
    expect(await recorded(record)).not.toContainEqual({ resume: 'demo-forgotten' });
  });

  it('closes the agent’s session (session/close) when its agent is stopped and when the thread is deleted', async () => {
    const thread = await openThread('keeper');
    await send(thread, '/say one');
    const session = async () => (await server.services.db.select({ s: threads.agentSession }).from(threads).where(eq(threads.id, thread.id)))[0]?.s ?? '';
    const first = await session();
    await server.services.agents.stop(thread.id);
    expect(await recorded(record)).toContainEqual({ close: first });
    await send(thread, '/say two');
    const closes = (await recorded(record)).filter((e) => JSON.stringify(e) === JSON.stringify({ close: first })).length;
    expect((await ada.delete(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(204);
    expect((await recorded(record)).filter((e) => JSON.stringify(e) === JSON.stringify({ close: first }))).toHaveLength(closes + 1);
  });
});

describe.skipIf(!POSTGRES_URL)('the agent’s own session across servers on one PostgreSQL', () => {
  let cluster: Cluster;
  let sessions: string;
  let log: string;

  beforeAll(async () => {
    sessions = await scratchFolder('cluster-sessions');
    log = path.join(await scratchFolder('cluster-record'), 'received.jsonl');
    const keeper = { command: process.execPath, args: [OPS_BIN, 'demo-agent'], env: { DEMO_AGENT_SESSIONS: sessions, DEMO_AGENT_RECORD: log }, sandbox: false };
    cluster = await startCluster(2, [], { AION_AGENTS: JSON.stringify({ keeper }), AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('a thread whose turns alternate between servers continues one session of the agent’s, resumed on each', async () => {
    const [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken)) as [Client, Client];
    const id = ((await a.post('/api/v1/assistant/threads', { agent: 'keeper' })).body as Thread).id;
    for (const [on, text] of [[a, '/say one'], [b, '/say two'], [a, '/recall']] as const) {
      const answer = await on.post(`/api/v1/assistant/threads/${id}/messages`, { text });
      expect(answer.status, answer.text).toBe(200);
      if (text === '/recall') expect(lastAnswer(answer.body as Thread)).toBe('recall: /say one | /say two | /recall');
    }
    const asked = await recorded(log);
    const resumed = asked.filter((e): e is { resume: string } => typeof e === 'object' && e !== null && 'resume' in e);
    expect(resumed).toHaveLength(2);
    expect(new Set(resumed.map((r) => r.resume)).size).toBe(1);
    // The process that lost the thread closed the session before it stopped.
    expect(asked).toContainEqual({ close: resumed[0]?.resume });
    const prompts = asked.filter(Array.isArray);
    expect(JSON.stringify(prompts)).not.toContain('Earlier in this conversation');
  });
});

describe('the agent’s config options and modes', () => {
  const choose = (thread: Thread, choice: unknown) => ada.put(`/api/v1/assistant/threads/${thread.id}/agent-options`, choice);

  it('shows what the session offers on the thread, each value that would skip approvals refused with a sentence', async () => {
    const thread = await openThread('chooser');
    expect(thread.agent_options).toBeNull();
    const before = await choose(thread, { option: 'model', value: 'demo-large' });
    expect(before.status).toBe(409);
    expect((before.body as { error: string }).error).toMatch(/once its session opens/);
    const shown = (await send(thread, '/say hi')).agent_options;
    expect(shown?.mode).toEqual({
      current: 'default',
      values: [
        { value: 'default', name: 'default', description: null, refused: null },
        { value: 'yolo', name: 'yolo', description: null, refused: 'mode yolo would let chooser act without asking; Aion keeps every agent asking before it acts' },
      ],
    });
    expect(shown?.options.map((o) => [o.id, o.current])).toEqual([
      ['model', 'demo-small'],
      ['effort', 'medium'],
      ['auto_approve', false],
    ]);
    const approve = shown?.options.find((o) => o.id === 'auto_approve');
    expect(approve?.values.map((v) => [v.value, v.refused === null])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(shown?.options.find((o) => o.id === 'model')?.values.every((v) => v.refused === null)).toBe(true);
  });

  it('the operator’s choice shows at once and is set on the agent’s session at the next turn; one that skips approvals is refused (422)', async () => {
    const thread = await openThread('chooser');
    await send(thread, '/say hi');
    const chosen = await choose(thread, { option: 'model', value: 'demo-large' });
    expect(chosen.status, chosen.text).toBe(200);
    expect((chosen.body as Thread).agent_options?.options.find((o) => o.id === 'model')?.current).toBe('demo-large');
    expect((await choose(thread, { option: 'effort', value: 'high' })).status).toBe(200);
    const refusedOption = await choose(thread, { option: 'auto_approve', value: true });
    expect(refusedOption.status).toBe(422);
    expect((refusedOption.body as { error: string }).error).toBe('Approve everything on would let chooser act without asking; Aion keeps every agent asking before it acts');
    const refusedMode = await choose(thread, { mode: 'yolo' });
    expect(refusedMode.status).toBe(422);
    expect((refusedMode.body as { error: string }).error).toMatch(/^mode yolo would let chooser act without asking/);
    expect((await choose(thread, { option: 'model', value: 'demo-huge' })).status).toBe(422);
    expect((await choose(thread, { option: 'temperature', value: 'hot' })).status).toBe(422);
    expect((await choose(thread, { mode: 'plan' })).status).toBe(422);
    expect((await choose(thread, { option: 'model' })).status).toBe(422);
    const after = await send(thread, '/options');
    expect(lastAnswer(after)).toBe('options: mode=default model=demo-large effort=high auto_approve=false');
    // The choice stays the thread's: a new process (a new session) gets it too.
    await server.services.agents.stop(thread.id);
    expect(lastAnswer(await send(thread, '/options'))).toBe('options: mode=default model=demo-large effort=high auto_approve=false');
  });

  it('a thread of the built-in assistant has no agent options (409)', async () => {
    const thread = await openThread(null);
    expect(thread.agent_options).toBeNull();
    expect((await choose(thread, { option: 'model', value: 'x' })).status).toBe(409);
  });
});

describe('the agent’s questions to the operator', () => {

  /** Sends `text` as `who`, and waits for the question its turn asks. */
  async function asked(who: Client, token: string, thread: Thread, text: string, on: TestServer = server) {
    const followed = followTurn(on.url, token, thread.id);
    await followed.open;
    const answer = who.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text });
    const event = await followed.until((e) => e.data.type === 'question');
    return { followed, answer, question: (event.data as { question: Question }).question };
  }

  it('comes as a form in the conversation; the operator’s answer, checked against it, goes to the agent', async () => {
    const thread = await openThread('plain');
    const { followed, answer, question } = await asked(ada, server.demoTokens.ada ?? '', thread, '/question Where should I deploy?');
    expect(question.message).toBe('Where should I deploy?');
    expect(question.fields).toEqual([
      { name: 'environment', title: 'Environment', description: null, type: 'choice', required: true, options: [{ value: 'staging', title: 'Staging' }, { value: 'production', title: 'Production' }], min: null, max: null, default: null },
      { name: 'reason', title: 'Why', description: null, type: 'string', required: false, options: null, min: null, max: 200, default: null },
      { name: 'careful', title: 'Go carefully', description: null, type: 'boolean', required: false, options: null, min: null, max: null, default: true },
    ]);
    const path = `/api/v1/assistant/threads/${thread.id}/questions/${question.id}`;
    const missing = await ada.post(path, { action: 'accept', content: { reason: 'tests' } });
    expect(missing.status).toBe(422);
    expect((missing.body as { error: string }).error).toBe('Environment is required');
    expect((await ada.post(path, { action: 'accept', content: { environment: 'moon' } })).status).toBe(422);
    expect((await ada.post(path, { action: 'accept', content: { environment: 'staging', careful: 'yes' } })).status).toBe(422);
    expect((await ada.post(path, { action: 'accept', content: { environment: 'staging', extra: 1 } })).status).toBe(422);
    const olive = client(server.url, server.demoTokens.olive ?? '');
    expect((await olive.post(path, { action: 'decline' })).status).toBe(404);
    const accepted = await ada.post(path, { action: 'accept', content: { environment: 'staging', careful: false } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({ id: question.id, outcome: 'accepted' });
    expect((await ada.post(path, { action: 'decline' })).status).toBe(409);
    const done = await answer;
    expect(done.status, done.text).toBe(200);
    const said = /^question: accept (.*)$/.exec(lastAnswer(done.body as Thread));
    expect(JSON.parse(said?.[1] ?? 'null')).toEqual({ environment: 'staging', careful: false });
    const events = await followed.done;
    expect(events.map((e) => e.data)).toContainEqual({ type: 'question_closed', id: question.id, outcome: 'accepted' });
  });

  it('the operator may decline', async () => {
    const thread = await openThread('plain');
    const { answer, question } = await asked(ada, server.demoTokens.ada ?? '', thread, '/question Which?');
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/questions/${question.id}`, { action: 'decline' })).body).toEqual({ id: question.id, outcome: 'declined' });
    expect(lastAnswer((await answer).body as Thread)).toBe('question: decline');
  });

  it('a viewer never answers for an operator (403); Stop cancels the question with the turn', async () => {
    const vic = client(server.url, server.demoTokens.vic ?? '');
    const opened = await vic.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'plain' });
    expect(opened.status, opened.text).toBe(200);
    const thread = opened.body as Thread;
    const { followed, answer, question } = await asked(vic, server.demoTokens.vic ?? '', thread, '/question Which?');
    const refused = await vic.post(`/api/v1/assistant/threads/${thread.id}/questions/${question.id}`, { action: 'accept', content: { environment: 'production' } });
    expect(refused.status).toBe(403);
    expect((refused.body as { error: string }).error).toMatch(/^you are a viewer in shop: a viewer does not answer an agent's questions for an operator/);
    expect(await server.services.turns.cancel(thread.id)).toBe(true);
    const stopped = await answer;
    expect(stopped.status, stopped.text).toBe(200);
    expect((await followed.done).map((e) => e.data)).toContainEqual({ type: 'question_closed', id: question.id, outcome: 'cancelled' });
    expect((await vic.post(`/api/v1/assistant/threads/${thread.id}/questions/${question.id}`, { action: 'decline' })).status).toBe(403);
  });

  it('times out with the turn: the agent is told it was cancelled, and it can no longer be answered (409)', async () => {
    // The timeout counts the agent's start too: 2 s was too short for a loaded machine to start it and ask (CI, once).
    const short = await startTestServer('pglite', {
      demo: true,
      env: { AION_AGENTS: JSON.stringify({ plain: demoAgent() }), AION_AGENT_TURN_TIMEOUT: '5s', AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' },
    });
    try {
      const token = short.demoTokens.ada ?? '';
      const on = client(short.url, token);
      const thread = (await on.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'plain' })).body as Thread;
      const { followed, answer, question } = await asked(on, token, thread, '/question Which?', short);
      const ended = await answer;
      expect(ended.status, ended.text).toBe(200);
      expect((ended.body as Thread).messages.at(-1)).toMatchObject({ role: 'assistant' });
      expect((await followed.done).map((e) => e.data)).toContainEqual({ type: 'question_closed', id: question.id, outcome: 'cancelled' });
      const late = await on.post(`/api/v1/assistant/threads/${thread.id}/questions/${question.id}`, { action: 'accept', content: { environment: 'staging' } });
      expect(late.status).toBe(409);
    } finally {
      await short.stop();
    }
  });
});
