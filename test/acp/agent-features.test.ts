// The ACP features of 2026 (issue 31), end to end over real HTTP with a real
// spawned `ops demo-agent` (dist/main.js): what an agent reports of its cost,
// its own session continued on another server and closed, its config options
// and modes, and its questions to the operator.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Thread {
  id: string;
  agent: string | null;
  messages: { role: string; text: string }[];
}

const METRICS_TOKEN = 'metrics-token-of-the-features-test';
const demoAgent = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env, sandbox: false });

let server: TestServer;
let ada: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', {
    demo: true,
    env: {
      AION_AGENTS: JSON.stringify({ plain: demoAgent() }),
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

  it('context without cost: the context is reported, the tokens and cost stay null', async () => {
    const thread = await openThread('plain');
    await send(thread, '/usage 300 1000');
    const usage = (await ada.get(`/api/v1/assistant/threads/${thread.id}/usage`)).body as { agent: Record<string, unknown> };
    expect(usage.agent).toMatchObject({ reported_turns: 1, input_tokens: null, context: { used: 300, size: 1000 }, cost: null });
  });
});
