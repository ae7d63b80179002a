// The ACP agents users run (DESIGN.md §6: Claude, Gemini, Codex, Copilot,
// OpenCode, Kilo, Qwen Code, Cline), for real, each pinned and in its OS
// sandbox, each against a mock of its model API on loopback (the only host it
// may reach besides Aion): a read → write → one pending proposal → accept
// turn (an agent that reaches none of Aion's tools: a turn in words, nothing
// proposed); the model asking the agent's own shell, file write and fetch →
// nothing ran; a shell call titled like an Aion tool → nothing ran; Stop
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
import { CLINE_TOOLS, clineAgent } from './cline.js';
import { codexAgent } from './codex.js';
import { copilotAgent } from './copilot.js';
import { geminiAgent } from './gemini.js';
import { installed, type RealAgentConfig, type RealAgentName } from './install.js';
import { startMockAnthropic } from './mock-anthropic.js';
import { startMockCopilot } from './mock-copilot.js';
import { startMockGemini } from './mock-gemini.js';
import { startMockChatCompletions } from './mock-chat-completions.js';
import { startMockOpenAI } from './mock-openai.js';
import { kiloAgent } from './kilo.js';
import { OPENCODE_TOOLS, opencodeAgent } from './opencode.js';
import { QWEN_TOOLS, qwenAgent } from './qwen.js';
import type { MockModel, ModelStep } from './script.js';

interface Thread {
  id: string;
  state: string;
  messages: { role: string; text: string; stop_reason: string | null; tool_calls?: { title: string; status: string; refused?: string }[] }[];
  proposals: { id: string; tool: string; status: string }[];
}

interface RealAgent {
  name: string;
  /**
   * An agent that reaches none of Aion's tools and marks no call as one of them (Cline 3.0: its ACP session reads
   * no MCP server the client gives, and its calls carry a title alone): it answers in words; the rest holds.
   */
  wordsOnly?: true;
  /** The token counts it reports of its model's calls (the chat mock's 10 in, 5 out each), stored per turn. */
  reportsTokens?: true;
  needs: RealAgentName[];
  mock: () => Promise<MockModel>;
  config: (mockUrl: string) => RealAgentConfig;
}

const ALL_AGENTS: RealAgent[] = [
  { name: 'claude', needs: ['claude', 'node22'], mock: startMockAnthropic, config: claudeAgent },
  { name: 'gemini', needs: ['gemini', 'node22'], mock: startMockGemini, config: geminiAgent },
  { name: 'codex', needs: ['codex', 'node22'], mock: startMockOpenAI, config: codexAgent },
  { name: 'copilot', needs: ['copilot'], mock: startMockCopilot, config: (url) => copilotAgent(url) },
  { name: 'opencode', needs: ['opencode'], mock: () => startMockChatCompletions(OPENCODE_TOOLS), config: opencodeAgent },
  { name: 'kilo', needs: ['kilo'], mock: () => startMockChatCompletions(OPENCODE_TOOLS), config: kiloAgent },
  { name: 'qwen', needs: ['qwen', 'node22'], mock: () => startMockChatCompletions(QWEN_TOOLS), config: qwenAgent, reportsTokens: true },
  { name: 'cline', needs: ['cline'], mock: () => startMockChatCompletions(CLINE_TOOLS, { toolless: 'scripted' }), config: clineAgent, wordsOnly: true },
];

/** Every agent, or those AION_REAL_AGENTS_ONLY names (`opencode,codex`): one agent's run while working on it. */
const only = process.env.AION_REAL_AGENTS_ONLY?.split(',') ?? null;
const AGENTS = ALL_AGENTS.filter((agent) => only === null || only.includes(agent.name));

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
    env: {
      AION_AGENTS: JSON.stringify(configured),
      // Each agent takes four messages of one operator: eight agents pass the default 30 in 5 minutes (the last agent's messages got a 429).
      AION_ASSISTANT_RATE: '100/5m',
      AION_AGENT_PER_OPERATOR: '8',
      AION_AGENT_TURN_TIMEOUT: '300s' /* a ceiling for a loaded machine; Stop is timed below */,
      PATH: process.env.PATH ?? '',
    },
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
  const sent = Date.now();
  const turn = send(id, text);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const cancelled = (await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body;
  // No turn to cancel: the message's answer says why (it ended before, or never began).
  if (JSON.stringify(cancelled) !== JSON.stringify({ cancelled: true })) expect(cancelled, `after ${Date.now() - sent} ms: ${(await turn).status} ${(await turn).text}`).toEqual({ cancelled: true });
  const answer = await turn;
  expect(answer.status, answer.text).toBe(200);
  expect(lastAnswer(answer.body as Thread)?.stop_reason).toBe('cancelled');
}

/** The process group of each agent started, to see that none outlives the server. */
const groups: number[] = [];
/** A thread's scratch folder: the server's folder of them is on every agent's command line. */
let scratchFolder = '';

/** Opens the agent's warm thread with TEXT: its process is started as no root, and no command line holds the credential. */
async function openWarm(name: string, text: string): Promise<{ id: string; thread: Thread }> {
  const id = await openThread(name);
  const answer = await send(id, text);
  expect(answer.status, answer.text).toBe(200);
  const pid = server.services.agents.pidOf(id) ?? 0;
  groups.push(pid);
  // Never as root: each agent of a root server runs as a uid of its own, from the base up.
  if (process.getuid?.() === 0) {
    const uid = Number(/^Uid:\t(\d+)\t/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    expect(uid).toBeGreaterThanOrEqual(DEFAULT_AGENT_UID_BASE);
  }
  // The agent and every process it started keep the thread's credential off their command lines.
  expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('aion_ses_');
  return { id, thread: answer.body as Thread };
}

describe.each(AGENTS)('$name', ({ name, wordsOnly, reportsTokens }) => {
  let warm = '';
  const readThenWrite = (document: string): ModelStep[] => [
    { aion: 'read_document', input: { project: 'shop', path: 'app.yaml' } },
    { aion: 'write_document', input: { project: 'shop', path: document, text: `written-by: ${name}\n` } },
    { say: 'I proposed the new document.' },
  ];

  const readsAndWrites = async () => {
    const mock = mocks.get(name) as MockModel;
    const document = `${name}.yaml`;
    mock.script(readThenWrite(document));
    const opened = await openWarm(name, 'Read app.yaml, then write a new document.');
    warm = opened.id;
    scratchFolder = server.services.agents.foldersOf(warm).root;
    const thread = opened.thread;
    expect(thread.proposals, JSON.stringify(lastAnswer(thread))).toEqual([expect.objectContaining({ tool: 'write_document', status: 'pending' })]);
    // The read ran as the operator, and its result went back to the model.
    expect(JSON.stringify(mock.requests)).toContain('DATABASE_URL');
    const proposal = thread.proposals[0]?.id ?? '';
    const accepted = await ada.post(`/api/v1/assistant/threads/${warm}/proposals/${proposal}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    const written = await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: document });
    expect(JSON.stringify(written.body)).toContain(`written-by: ${name}`);
    if (reportsTokens) {
      // Three calls of the model at least: the read, the write, the words.
      const usage = (await ada.get(`/api/v1/assistant/threads/${warm}/usage`)).body as { agent: { input_tokens: number | null; output_tokens: number | null } };
      expect(usage.agent.input_tokens).toBeGreaterThanOrEqual(30);
      expect(usage.agent.output_tokens).toBeGreaterThanOrEqual(15);
    }
  };
  const answersInWords = async () => {
    const mock = mocks.get(name) as MockModel;
    mock.script(readThenWrite(`${name}.yaml`));
    const opened = await openWarm(name, 'Read app.yaml, then write a new document.');
    warm = opened.id;
    scratchFolder = server.services.agents.foldersOf(warm).root;
    expect(lastAnswer(opened.thread)?.text).toContain("the request offers no tool for Aion's read_document");
    expect(opened.thread.proposals).toEqual([]);
    expect(JSON.stringify(mock.requests)).not.toContain('DATABASE_URL');
  };
  // The first turn starts the agent: OpenCode's start alone is 5 s of CPU, and 88 s were measured at a load of 40 on 2 cores.
  if (wordsOnly) it('is offered none of Aion’s tools (it reads no MCP server a client gives), answers in words, and proposes nothing', answersInWords, 330_000);
  else it('reads, writes, leaves one pending proposal, and accept applies it', readsAndWrites, 330_000);

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
    // Nor any process of a thread Stop ended while it started (each sandbox's command line names its scratch folder).
    const under = (scratchRoot: string) => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(scratchRoot));
    const root = path.dirname(scratchFolder);
    while (under(root).length > 0 && Date.now() < until + 5_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(under(root).map((line) => line.slice(0, 200))).toEqual([]);
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
