// An agent's life on a server: stopped when idle (its credential revoked),
// the cap on processes, the turn timeout, and the live progress of a turn
// (SSE) for agent and built-in turns alike.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { alive } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { followTurn } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

interface Thread {
  id: string;
  messages: { role: string; text: string; stop_reason: string | null }[];
  state: string;
}

let quick: TestServer;
let capped: TestServer;
let ada: Client;
let adaCapped: Client;

beforeAll(async () => {
  [quick, capped] = await Promise.all([
    // The turn timeout leaves a cold agent's start and a short turn time on a loaded machine (3 s once cut one short).
    startTestServer('pglite', { demo: true, env: { AION_AGENT_IDLE: '300ms', AION_AGENT_TURN_TIMEOUT: '6s' } }),
    startTestServer('pglite', { demo: true, env: { AION_AGENT_MAX: '1' } }),
  ]);
  ada = client(quick.url, quick.demoTokens.ada ?? '');
  adaCapped = client(capped.url, capped.demoTokens.ada ?? '');
});
afterAll(() => Promise.all([quick?.stop(), capped?.stop()]));

async function openThread(on: Client, agent: string | null = 'demo-agent'): Promise<string> {
  return ((await on.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent })).body as Thread).id;
}

const lastAnswer = (thread: Thread) => thread.messages.filter((m) => m.role === 'assistant').at(-1);

describe('lifecycle', () => {
  it('stops an idle agent and revokes its credential; the next message starts it again', async () => {
    const id = await openThread(ada);
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say hi' })).status).toBe(200);
    const pid = quick.services.agents.pidOf(id) ?? 0;
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => quick.services.agents.pidOf(id) === undefined && !alive(pid));
    await waitFor(async () => {
      const rows = await quick.services.db.select({ revokedAt: tokens.revokedAt }).from(tokens).where(eq(tokens.threadId, id));
      return rows.length === 1 && rows[0]?.revokedAt !== null;
    });
    const again = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say back' });
    expect(again.status).toBe(200);
    expect(quick.services.agents.pidOf(id)).not.toBe(pid);
  });

  it('cancels a turn longer than AION_AGENT_TURN_TIMEOUT', async () => {
    const id = await openThread(ada);
    const started = Date.now();
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 20000\n/say late' });
    expect(answer.status).toBe(200);
    expect(lastAnswer(answer.body as Thread)?.stop_reason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('cancels a built-in turn by aborting its model call', async () => {
    const id = await openThread(ada, null);
    const running = ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 20000\n/say late' });
    await waitFor(() => quick.services.turns.cancel(id));
    const answer = await running;
    expect(answer.status).toBe(200);
    expect(lastAnswer(answer.body as Thread)).toMatchObject({ stop_reason: 'cancelled', text: '' });
  });

  it('marks the thread refused when the agent refuses', async () => {
    const id = await openThread(ada);
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/refuse not that' });
    expect(answer.body).toMatchObject({ state: 'refused' });
    expect(lastAnswer(answer.body as Thread)).toMatchObject({ stop_reason: 'refusal', text: 'not that' });
  });

  it('counts busy agents against AION_AGENT_MAX: an idle one is stopped to make room', async () => {
    const first = await openThread(adaCapped);
    const second = await openThread(adaCapped);
    expect((await adaCapped.post(`/api/v1/assistant/threads/${first}/messages`, { text: '/say one' })).status).toBe(200);
    const idlePid = capped.services.agents.pidOf(first) ?? 0;
    expect(alive(idlePid)).toBe(true);
    const next = await adaCapped.post(`/api/v1/assistant/threads/${second}/messages`, { text: '/say two' });
    expect(next.status).toBe(200);
    expect(capped.services.agents.pidOf(first)).toBeUndefined();
    await waitFor(() => !alive(idlePid));
    // While one answers, the one slot is taken: 503 with the sentence, and nothing is stored.
    const busy = adaCapped.post(`/api/v1/assistant/threads/${second}/messages`, { text: '/slow 1500' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const over = await adaCapped.post(`/api/v1/assistant/threads/${first}/messages`, { text: '/say three' });
    expect(over.status).toBe(503);
    expect((over.body as { error: string }).error).toMatch(/1 agents are answering across the servers, the limit \(AION_AGENT_MAX\); try again in a moment/);
    expect((await busy).status).toBe(200);
    const now = await adaCapped.post(`/api/v1/assistant/threads/${first}/messages`, { text: '/say three again' });
    expect(now.status).toBe(200);
    expect((now.body as Thread).messages.map((m) => m.text)).toEqual(['/say one', 'one', '/say three again', 'three again']);
  });
});

describe('shutdown', () => {
  it('stops every agent process when the server closes', async () => {
    const server = await startTestServer('pglite', { demo: true });
    const on = client(server.url, server.demoTokens.ada ?? '');
    const id = await openThread(on);
    expect((await on.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say hi' })).status).toBe(200);
    const pid = server.services.agents.pidOf(id) ?? 0;
    expect(alive(pid)).toBe(true);
    await server.stop();
    expect(alive(pid)).toBe(false);
  });
});

describe('live progress (SSE)', () => {
  it('streams an agent turn’s events in order', async () => {
    const id = await openThread(ada);
    const events = followTurn(quick.url, quick.demoTokens.ada ?? '', id);
    await events.open;
    const text = '/say hi\n/plan look; fix\n/tool set_secret {"name": "LIVE", "value": "v"}';
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text })).status).toBe(200);
    const seen = (await events.done).map((e) => e.data);
    expect(seen.map((e) => e.type)).toEqual(['started', 'text', 'plan', 'text', 'tool_call', 'proposal', 'tool_call', 'text', 'ended']);
    expect(seen[0]).toEqual({ type: 'started' });
    expect(seen[1]).toEqual({ type: 'text', delta: 'hi\n' });
    expect(seen.at(-1)).toEqual({ type: 'ended', stop_reason: 'end_turn' });
  });

  it('streams a built-in turn’s events too', async () => {
    const id = await openThread(ada, null);
    const events = followTurn(quick.url, quick.demoTokens.ada ?? '', id);
    await events.open;
    const text = '/say hello\n/tool set_secret {"name": "LIVE2", "value": "v"}';
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text })).status).toBe(200);
    const seen = (await events.done).map((e) => e.data);
    expect(seen.map((e) => e.type)).toEqual(['started', 'text', 'proposal', 'tool_call', 'text', 'ended']);
    expect(seen[1]).toEqual({ type: 'text', delta: 'hello' });
  });

  it('answers 404 for another operator’s thread', async () => {
    const id = await openThread(ada);
    const olive = client(quick.url, quick.demoTokens.olive ?? '');
    expect((await olive.get(`/api/v1/assistant/threads/${id}/events`)).status).toBe(404);
    expect((await olive.post(`/api/v1/assistant/threads/${id}/cancel`)).status).toBe(404);
    expect((await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body).toEqual({ cancelled: false });
  });
});
