// The assistant with the `anthropic` model, driven through the real SDK
// against a local server that speaks the Messages API on 127.0.0.1: tool use
// over several steps, what every request carried, a canary that never reaches
// the provider, and provider failures that answer 503 and lose nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Answer = { status: number; body: unknown } | 'hang';
interface Received {
  system: { type: string; text: string; cache_control?: unknown }[];
  tools: { name: string; cache_control?: unknown }[];
  messages: { role: string; content: unknown }[];
  model: string;
  max_tokens: number;
}

const received: { raw: string; body: Received }[] = [];
const script: Answer[] = [];
let api: http.Server;
let server: TestServer;
let ada: Client;

const message = (content: unknown[], stop_reason: string) => ({
  status: 200,
  body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
});

beforeAll(async () => {
  api = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ raw, body: JSON.parse(raw) as Received });
      const next = script.shift() ?? message([{ type: 'text', text: 'nothing scripted' }], 'end_turn');
      if (next === 'hang') return; // never answers
      res.writeHead(next.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const port = (api.address() as AddressInfo).port;
  server = await startTestServer('pglite', {
    demo: true,
    env: {
      AION_MODEL: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test-key-never-logged',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
      AION_ANTHROPIC_MODEL: 'claude-test',
      // The tools and the system prompt take some 2,900 tokens of it; the history has the rest.
      AION_CONTEXT_TOKENS: '5000',
    },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(async () => {
  await server.stop();
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
});

interface Thread {
  id: string;
  messages: { role: string; text: string; stop_reason: string | null }[];
  proposals: { id: string; tool: string; status: string }[];
}

async function open(): Promise<Thread> {
  return (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as Thread;
}

describe('the anthropic model', () => {
  it('reports itself configured', async () => {
    expect((await ada.get('/api/v1/assistant/status')).body).toEqual({ configured: true, model: 'anthropic', sentence: '' });
  });

  it('uses tools over several steps; writes become proposals; requests carry cache_control, tools and the scope', async () => {
    received.length = 0;
    script.push(
      message([{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'toolu_1', name: 'list_environments', input: {} }], 'tool_use'),
      message([{ type: 'tool_use', id: 'toolu_2', name: 'create_environment', input: { name: 'qa' } }], 'tool_use'),
      message([{ type: 'text', text: 'I proposed a qa environment.' }], 'end_turn'),
    );
    const thread = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'add a qa environment' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as Thread;
    expect(body.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Looking.\n\nI proposed a qa environment.', stop_reason: 'end_turn' });
    expect(body.proposals.map((p) => [p.tool, p.status])).toEqual([['create_environment', 'pending']]);

    expect(received).toHaveLength(3);
    const [first, second, third] = received.map((r) => r.body);
    expect(first?.model).toBe('claude-test');
    expect(first?.max_tokens).toBeGreaterThan(0);
    expect(first?.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(first?.system.map((b) => b.text).join('')).toContain('project shop, environment staging');
    expect(first?.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(first?.tools.slice(0, -1).every((t) => t.cache_control === undefined)).toBe(true);
    // an admin is offered the writes too; the conversation tools are not in the public catalogue
    expect(first?.tools.map((t) => t.name)).toContain('create_environment');
    expect(first?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'add a qa environment', cache_control: { type: 'ephemeral' } }] }]);
    expect(JSON.stringify(second?.messages.at(-1))).toContain('"tool_use_id":"toolu_1"');
    expect(JSON.stringify(third?.messages.at(-1))).toContain('\\"proposed\\":true');
  });

  it('calls the model at most eight times a turn', async () => {
    received.length = 0;
    for (let i = 0; i < 10; i++) {
      script.push(message([{ type: 'tool_use', id: `toolu_loop_${i}`, name: 'whoami', input: {} }], 'tool_use'));
    }
    const thread = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'keep going' });
    expect(answer.status).toBe(200);
    expect(received).toHaveLength(8);
    expect((answer.body as Thread).messages.at(-1)?.stop_reason).toBe('tool_use');
    script.length = 0;
  });

  it('offers a viewer only the tools a viewer may run', async () => {
    received.length = 0;
    const vic = client(server.url, server.demoTokens.vic ?? '');
    const thread = (await vic.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as Thread;
    await vic.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'what can I do?' });
    const names = received[0]?.body.tools.map((t) => t.name) ?? [];
    expect(names).toContain('list_environments');
    expect(names).not.toContain('deploy');
    expect(names).not.toContain('read_audit');
  });

  it('tells the model on the next turn how its proposals were decided', async () => {
    script.push(message([{ type: 'tool_use', id: 'toolu_9', name: 'create_environment', input: { name: 'told' } }], 'tool_use'), message([{ type: 'text', text: 'proposed' }], 'end_turn'));
    const thread = await open();
    const proposed = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'make told' })).body as Thread;
    await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposed.proposals[0]?.id}/reject`);
    received.length = 0;
    await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'why not?' });
    const sent = JSON.stringify(received[0]?.body.messages);
    expect(sent).toContain('The operator decided your proposals');
    expect(sent).toContain('create environment told (create_environment): rejected');
  });

  it('never sends a typed secret to the provider, nor stores or logs it', async () => {
    const CANARY = 'canary-5e2f-for-the-provider';
    received.length = 0;
    script.push(message([{ type: 'tool_use', id: 'toolu_s', name: 'set_secret', input: { name: 'TYPED', value: '[secret:1]' } }], 'tool_use'), message([{ type: 'text', text: 'proposed' }], 'end_turn'));
    const thread = await open();
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, {
      text: `store <secret>${CANARY}</secret> as TYPED, and here is my key aion_${'Q'.repeat(43)}`,
    });
    expect(answer.status).toBe(200);
    expect(received.length).toBeGreaterThan(0);
    for (const request of received) {
      expect(request.raw).not.toContain(CANARY);
      expect(request.raw).not.toContain('Q'.repeat(43));
    }
    expect(received[0]?.raw).toContain('store [secret:1] as TYPED, and here is my key [secret:2]');
    const accepted = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${(answer.body as Thread).proposals[0]?.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(JSON.stringify(accepted.body)).not.toContain(CANARY);
    expect(server.logs.join('\n')).not.toContain(CANARY);
    expect(server.logs.join('\n')).not.toContain('sk-ant-test-key-never-logged');
  });

  it('trims the history so that the whole input stays within AION_CONTEXT_TOKENS, oldest first', async () => {
    const thread = await open();
    const long = (n: number) => `message ${n} ${'words '.repeat(400)}`;
    for (let i = 1; i <= 4; i++) await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: long(i) });
    received.length = 0;
    await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'latest' });
    const sent = JSON.stringify(received[0]?.body.messages);
    expect(sent).toContain('latest');
    expect(sent).not.toContain('message 1 ');
    expect(received[0]?.body.messages[0]?.role).toBe('user');
    // The whole request as the budget counts it: four characters a token.
    expect(received[0]?.raw.length ?? Infinity).toBeLessThanOrEqual(5000 * 4);
  });

  it.each([
    [429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, 'rate limited by Anthropic'],
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'Anthropic is overloaded'],
    [500, { type: 'error', error: { type: 'api_error', message: 'boom' } }, 'the Anthropic API failed'],
  ])('answers %i from the provider with 503, keeps the message, and the thread stays usable', async (status, body, sentence) => {
    script.push({ status, body }, { status, body }); // the SDK retries once
    const thread = await open();
    const failed = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: `try ${status}` });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: expect.stringContaining(sentence) });
    const kept = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(kept.messages.map((m) => m.text)).toEqual([`try ${status}`]);
    script.push(message([{ type: 'text', text: 'back' }], 'end_turn'));
    const again = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'again' });
    expect(again.status).toBe(200);
    expect((again.body as Thread).messages.at(-1)?.text).toBe('back');
  });
});
