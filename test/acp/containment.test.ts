// A hosted agent cannot take the server down or hold it: every way its start
// can fail (authentication it was not given, no mode that asks, an exit
// during session/new, a process that never answers) is a 503 sentence for
// that turn, recorded for GET /assistant/agents, and the server answers on;
// Stop works from the first moment of a turn; an agent that ignores the
// cancel or the turn timeout is stopped with its whole process group; the
// cap counts busy agents with a share per operator; an answer is cut at its
// size. The demo agent plays each part, outside the sandbox (the sandbox has
// tests of its own).
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { alive } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

interface Thread {
  id: string;
  messages: { role: string; text: string; stop_reason: string | null }[];
}
interface Listing {
  name: string;
  available: boolean;
  sentence: string;
  sandboxed: boolean;
}

const DEMO = [path.resolve('dist/main.js'), 'demo-agent'];
const demo = (env: Record<string, string> = {}) => ({ command: process.execPath, args: DEMO, env, sandbox: false });

let server: TestServer;
let ada: Client;
let olive: Client;
let record: string;

beforeAll(async () => {
  record = path.join(await scratchFolder('containment'), 'received.jsonl');
  server = await startTestServer('pglite', {
    demo: true,
    env: {
      AION_AGENTS: JSON.stringify({
        plain: demo(),
        locked: demo({ DEMO_AGENT_AUTH: 'DEMO_KEY' }),
        keyed: { ...demo({ DEMO_AGENT_AUTH: 'DEMO_KEY' }), pass_env: ['DEMO_KEY'] },
        reckless: demo({ DEMO_AGENT_MODES: 'yolo,bypassPermissions' }),
        urlmodes: demo({
          DEMO_AGENT_MODES: 'https://agentclientprotocol.com/protocol/session-modes#autopilot,https://agentclientprotocol.com/protocol/session-modes#agent',
          DEMO_AGENT_RECORD: record,
        }),
        quitter: demo({ DEMO_AGENT_EXIT_ON_SESSION: '1' }),
        // Starts, and never answers initialize.
        mute: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 600000)'], sandbox: false },
      }),
      DEMO_KEY: 'demo-key-value',
      // Long enough for an agent to start on a loaded machine; the stubborn turn waits it out.
      AION_AGENT_TURN_TIMEOUT: '5s',
      AION_AGENT_PER_OPERATOR: '1',
      AION_AGENT_ANSWER_MAX: '100000',
      AION_AGENT_MAX: '20',
      // Its agents run outside the sandbox, as the test's user, who may be root.
      AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1',
    },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
  olive = client(server.url, server.demoTokens.olive ?? '');
});
afterAll(() => server?.stop());

async function openThread(agent: string, as: Client = ada): Promise<string> {
  const opened = await as.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent });
  expect(opened.status, opened.text).toBe(200);
  return (opened.body as Thread).id;
}

const send = (id: string, text: string, as: Client = ada) => as.post(`/api/v1/assistant/threads/${id}/messages`, { text });
const errorOf = (response: { body: unknown }) => (response.body as { error: string }).error;
const lastAnswer = (thread: Thread) => thread.messages.filter((m) => m.role === 'assistant').at(-1);
const listing = async (name: string) => ((await ada.get('/api/v1/assistant/agents')).body as Listing[]).find((a) => a.name === name);

async function serverAnswers(): Promise<void> {
  expect((await ada.get('/api/v1/projects')).status).toBe(200);
}

describe('an agent that fails to start', () => {
  it('that needs a key it was not given: 503 naming the variable, the server up, the agent shown unavailable', async () => {
    const id = await openThread('locked');
    const answer = await send(id, '/say hi');
    expect(answer.status).toBe(503);
    expect(errorOf(answer)).toMatch(/locked needs to authenticate \(it said: Authentication required\): pass it DEMO_KEY .*your message is kept/);
    await serverAnswers();
    expect(await listing('locked')).toMatchObject({ available: false, sentence: expect.stringContaining('DEMO_KEY') });
    expect((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'locked' })).status).toBe(503);
  });

  it('that needs a key it was given: authenticates, then answers', async () => {
    const answer = await send(await openThread('keyed'), '/say hi');
    expect(answer.status, answer.text).toBe(200);
    expect(lastAnswer(answer.body as Thread)?.text).toBe('hi');
  });

  it('that offers no mode that asks before acting: 503, and the modes it offers', async () => {
    const answer = await send(await openThread('reckless'), '/say hi');
    expect(answer.status).toBe(503);
    expect(errorOf(answer)).toMatch(/reckless offers no mode that asks before acting \(it offers yolo, bypassPermissions\)/);
    await serverAnswers();
    expect(await listing('reckless')).toMatchObject({ available: false });
  });

  it('chooses the asking mode among URL-style mode ids by meaning', async () => {
    const answer = await send(await openThread('urlmodes'), '/say hi');
    expect(answer.status, answer.text).toBe(200);
    const lines = (await readFile(record, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toContain(JSON.stringify({ setMode: 'https://agentclientprotocol.com/protocol/session-modes#agent' }));
  });

  it('that exits during session/new: 503 each time, the server never falls, no process is left', async () => {
    const id = await openThread('quitter');
    for (let i = 0; i < 2; i++) {
      const answer = await send(id, '/say hi');
      expect(answer.status, answer.text).toBe(503);
      expect(errorOf(answer)).toMatch(/quitter could not open a session: .*your message is kept/);
      await serverAnswers();
    }
    expect(await listing('quitter')).toMatchObject({ available: false, sentence: expect.stringContaining('could not open a session') });
    expect(server.services.agents.pidOf(id)).toBeUndefined();
  });
});

describe('Stop and the turn timeout', () => {
  it('stops a turn whose agent is still starting: cancelled at once, the process gone', async () => {
    const id = await openThread('mute');
    const started = Date.now();
    const turn = send(id, '/say hi');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await ada.post(`/api/v1/assistant/threads/${id}/cancel`);
    expect(cancelled.body).toEqual({ cancelled: true });
    const answer = await turn;
    expect(answer.status, answer.text).toBe(200);
    expect(lastAnswer(answer.body as Thread)).toMatchObject({ stop_reason: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(1_500);
    // The thread takes the next message at once.
    expect((await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body).toEqual({ cancelled: false });
  });

  it('stops an agent that ignores the cancel when the turn times out, children and all; the thread is usable', async () => {
    const id = await openThread('plain');
    const child = await send(id, '/child');
    const childPid = Number(/child: (\d+)/.exec(lastAnswer(child.body as Thread)?.text ?? '')?.[1]);
    expect(alive(childPid)).toBe(true);
    const agentPid = server.services.agents.pidOf(id) ?? 0;
    const started = Date.now();
    const answer = await send(id, '/stubborn 30000');
    expect(answer.status, answer.text).toBe(200);
    expect(lastAnswer(answer.body as Thread)).toMatchObject({ stop_reason: 'cancelled' });
    // The timeout (5 s) and the grace for the cancel (2 s), not the 30 s it wanted.
    expect(Date.now() - started).toBeLessThan(12_000);
    await waitFor(() => !alive(agentPid) && !alive(childPid));
    const again = await send(id, '/say back');
    expect(again.status).toBe(200);
    expect(lastAnswer(again.body as Thread)?.text).toBe('back');
  });
});

describe('an agent that stops asking', () => {
  it('is stopped the moment it says it switched to a mode that acts unasked', async () => {
    const id = await openThread('plain');
    const answer = await send(id, '/say before\n/mode yolo\n/say after');
    expect(answer.status, answer.text).toBe(200);
    const last = lastAnswer(answer.body as Thread);
    expect(last).toMatchObject({ stop_reason: 'cancelled' });
    expect(last?.text).toMatch(/^before\n\nAion stopped plain: it switched to mode yolo, which acts without asking\.$/);
    expect(server.services.agents.pidOf(id)).toBeUndefined();
  });
});

describe('bounds', () => {
  it('lets one operator hold AION_AGENT_PER_OPERATOR answering agents; others still get theirs', async () => {
    const first = await openThread('plain');
    const second = await openThread('plain');
    const slow = send(first, '/slow 1500');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const refused = await send(second, '/say hi');
    expect(refused.status).toBe(503);
    expect(errorOf(refused)).toMatch(/1 agents are answering for you already, the limit per operator \(AION_AGENT_PER_OPERATOR\)/);
    const others = await send(await openThread('plain', olive), '/say hi', olive);
    expect(others.status, others.text).toBe(200);
    expect((await slow).status).toBe(200);
  });

  it('cuts an answer at AION_AGENT_ANSWER_MAX and says so', async () => {
    const answer = await send(await openThread('plain'), '/flood 1000000');
    expect(answer.status).toBe(200);
    const text = lastAnswer(answer.body as Thread)?.text ?? '';
    expect(text.length).toBeLessThan(100_200);
    expect(text).toMatch(/The agent's answer was cut at 100000 bytes \(AION_AGENT_ANSWER_MAX\)/);
    const listed = await ada.get('/api/v1/assistant/threads');
    expect(listed.text.length).toBeLessThan(2_000_000);
  });

  it('stops an agent that sends one message over 8 MiB: 503, and the next message starts it afresh', async () => {
    const id = await openThread('plain');
    const huge = await send(id, '/huge 9000000');
    expect(huge.status, huge.text).toBe(503);
    expect(errorOf(huge)).toMatch(/agent plain (failed|stopped mid-turn).*your message is kept/);
    await serverAnswers();
    const again = await send(id, '/say back');
    expect(again.status, again.text).toBe(200);
    expect(lastAnswer(again.body as Thread)?.text).toBe('back');
  });
});
