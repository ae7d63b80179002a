// The four ACP agents users run (DESIGN.md §6), for real, each pinned and in
// its OS sandbox, each against a mock of its model API on loopback (the only
// host it may reach besides Aion): a read → write → one pending proposal →
// accept turn; the model asking the agent's own shell, file write and fetch
// → nothing ran; a shell call titled like an Aion tool → nothing ran; Stop
// while cold and while warm; no process left once the server stops.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_UID_BASE } from '../../../src/acp/agent-uids.js';
import { client, type Client } from '../../helpers/http.js';
import { descendantsOf } from '../../helpers/process.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { claudeAgent } from './claude.js';
import { codexAgent } from './codex.js';
import { copilotAgent } from './copilot.js';
import { geminiAgent } from './gemini.js';
import { installed, type RealAgentConfig, type RealAgentName } from './install.js';
import { startMockAnthropic } from './mock-anthropic.js';
import { startMockCopilot } from './mock-copilot.js';
import { startMockGemini } from './mock-gemini.js';
import { startMockOpenAI } from './mock-openai.js';
import type { MockModel } from './script.js';

interface Thread {
  id: string;
  state: string;
  messages: { role: string; text: string; stop_reason: string | null; tool_calls?: { title: string; status: string; refused?: string }[] }[];
  proposals: { id: string; tool: string; status: string }[];
}

interface RealAgent {
  name: string;
  needs: RealAgentName[];
  mock: () => Promise<MockModel>;
  config: (mockUrl: string) => RealAgentConfig;
}

const AGENTS: RealAgent[] = [
  { name: 'claude', needs: ['claude', 'node22'], mock: startMockAnthropic, config: claudeAgent },
  { name: 'gemini', needs: ['gemini', 'node22'], mock: startMockGemini, config: geminiAgent },
  { name: 'codex', needs: ['codex', 'node22'], mock: startMockOpenAI, config: codexAgent },
  { name: 'copilot', needs: ['copilot'], mock: startMockCopilot, config: (url) => copilotAgent(url) },
];

const mocks = new Map<string, MockModel>();
let server: TestServer;
let stopped = false;
let ada: Client;
/** A host every agent may reach: any request here is a fetch that ran. */
let canary: http.Server;
const canaryHits: string[] = [];

beforeAll(async () => {
  for (const agent of AGENTS) for (const name of agent.needs) await installed(name);
  canary = http.createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.end('canary');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const canaryHost = `127.0.0.1:${(canary.address() as AddressInfo).port}`;
  const configured: Record<string, unknown> = {};
  for (const agent of AGENTS) {
    const mock = await agent.mock();
    mocks.set(agent.name, mock);
    configured[agent.name] = { ...agent.config(mock.url), allow_hosts: [new URL(mock.url).host, canaryHost] };
  }
  server = await startTestServer('pglite', {
    demo: true,
    env: { AION_AGENTS: JSON.stringify(configured), AION_AGENT_PER_OPERATOR: '8', AION_AGENT_TURN_TIMEOUT: '60s', PATH: process.env.PATH ?? '' },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
  // Each runs in its sandbox here: the suite installs bubblewrap.
  const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; available: boolean; sandboxed: boolean }[];
  for (const agent of AGENTS) expect(listed).toContainEqual(expect.objectContaining({ name: agent.name, available: true, sandboxed: true }));
}, 300_000);

afterAll(async () => {
  if (!stopped) await server?.stop();
  await Promise.all([...mocks.values()].map((mock) => mock.close()));
  canary?.close();
});

async function openThread(agent: string): Promise<string> {
  const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent });
  expect(opened.status, opened.text).toBe(200);
  return (opened.body as Thread).id;
}

const send = (id: string, text: string) => ada.post(`/api/v1/assistant/threads/${id}/messages`, { text });
const lastAnswer = (thread: Thread) => thread.messages.filter((m) => m.role === 'assistant').at(-1);
const deployments = async () => JSON.stringify((await ada.post('/api/v1/assistant/tools/list_deployments', { project: 'shop', environment: 'staging' })).body);

/** Sends TEXT, stops the turn after MS: the answer is stored as cancelled. */
async function stopAfter(id: string, text: string, ms: number): Promise<void> {
  const turn = send(id, text);
  await new Promise((resolve) => setTimeout(resolve, ms));
  expect((await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body).toEqual({ cancelled: true });
  const answer = await turn;
  expect(answer.status, answer.text).toBe(200);
  expect(lastAnswer(answer.body as Thread)?.stop_reason).toBe('cancelled');
}

/** The process group of each agent started, to see that none outlives the server. */
const groups: number[] = [];

describe.each(AGENTS)('$name', ({ name }) => {
  let warm = '';

  it('reads, writes, leaves one pending proposal, and accept applies it', async () => {
    const mock = mocks.get(name) as MockModel;
    const document = `${name}.yaml`;
    mock.script([
      { aion: 'read_document', input: { project: 'shop', path: 'app.yaml' } },
      { aion: 'write_document', input: { project: 'shop', path: document, text: `written-by: ${name}\n` } },
      { say: 'I proposed the new document.' },
    ]);
    warm = await openThread(name);
    const answer = await send(warm, 'Read app.yaml, then write a new document.');
    expect(answer.status, answer.text).toBe(200);
    const thread = answer.body as Thread;
    const pid = server.services.agents.pidOf(warm) ?? 0;
    groups.push(pid);
    // Never as root: each agent of a root server runs as a uid of its own, from the base up.
    if (process.getuid?.() === 0) {
      const uid = Number(/^Uid:\t(\d+)\t/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      expect(uid).toBeGreaterThanOrEqual(DEFAULT_AGENT_UID_BASE);
    }
    expect(thread.proposals, JSON.stringify(lastAnswer(thread))).toEqual([expect.objectContaining({ tool: 'write_document', status: 'pending' })]);
    // The agent and every process it started keep the thread's credential off their command lines.
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('aion_ses_');
    // The read ran as the operator, and its result went back to the model.
    expect(JSON.stringify(mock.requests)).toContain('DATABASE_URL');
    const proposal = thread.proposals[0]?.id ?? '';
    const accepted = await ada.post(`/api/v1/assistant/threads/${warm}/proposals/${proposal}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    const written = await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: document });
    expect(JSON.stringify(written.body)).toContain(`written-by: ${name}`);
  });

  it('runs nothing of its own when the model asks its shell, file write and fetch', async () => {
    const mock = mocks.get(name) as MockModel;
    const work = server.services.agents.foldersOf(warm).work;
    const before = await deployments();
    const hits = canaryHits.length;
    const canaryUrl = `http://${(canary.address() as AddressInfo).address}:${(canary.address() as AddressInfo).port}/fetched-by-${name}`;
    mock.script([
      { shell: `touch ${path.join(work, 'shell-ran')} && touch shell-ran-here` },
      { write: { path: path.join(work, 'written-by-agent.txt'), content: 'planted' } },
      { fetch: canaryUrl },
      { shell: 'deploy' },
      { say: 'tried.' },
    ]);
    const answer = await send(warm, 'Try your own tools.');
    expect([200, 503], answer.text).toContain(answer.status);
    // The scratch folder is a tmpfs of the sandbox's own: looked at through its processes' root (as root), else on the host.
    const seen = (file: string) => [...descendantsOf(server.services.agents.pidOf(warm) ?? 0).map((pid) => `/proc/${pid}/root`), ''].some((root) => existsSync(`${root}${path.join(work, file)}`));
    for (const file of ['shell-ran', 'shell-ran-here', 'written-by-agent.txt']) expect(seen(file), file).toBe(false);
    expect(canaryHits.slice(hits)).toEqual([]);
    // `deploy` as a shell command (its title the same as Aion's tool) deployed nothing and proposed nothing.
    expect(await deployments()).toBe(before);
    const thread = (await ada.get(`/api/v1/assistant/threads/${warm}`)).body as Thread;
    expect(thread.proposals.filter((p) => p.status === 'pending')).toEqual([]);
  });

  it('stops when cold (still starting) and when warm (the model thinking)', async () => {
    const mock = mocks.get(name) as MockModel;
    await stopAfter(await openThread(name), 'Say hello.', 150);
    mock.script([{ stall: 30_000 }, { say: 'too late' }]);
    const started = Date.now();
    await stopAfter(warm, 'Think for a long time.', 1_500);
    expect(Date.now() - started).toBeLessThan(8_000);
    mock.script([]);
  });
});

describe('after the server stops', () => {
  it('leaves no agent process, nor any child of one', async () => {
    expect(groups.filter((pid) => pid > 0)).toHaveLength(AGENTS.length);
    stopped = true;
    await server.stop();
    // Killed processes are reaped by init a moment later.
    const until = Date.now() + 5_000;
    while (groups.some(groupAlive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const pid of groups) expect(groupAlive(pid) ? ps(pid) : '', `process group ${pid}`).toBe('');
  });
});

function ps(pgid: number): string {
  const lines = execFileSync('ps', ['-eo', 'pgid=,pid=,stat=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.trim().split(/\s+/)[0] === String(pgid)).join('\n') || `group ${pgid}`;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
