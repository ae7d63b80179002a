// A thread held by an ACP agent, through the REST routes and a real spawned
// `ops demo-agent` (dist/main.js): the answer, its tool calls and plan,
// proposals on the running turn, permission rules, the shared buffer, what
// the agent never sees, crash, cancel, and the thread's deletion.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { alive } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

interface ToolCall {
  id: string;
  title: string;
  kind: string;
  status: string;
  refused?: string;
}
interface Message {
  id: number;
  role: string;
  text: string;
  stop_reason: string | null;
  tool_calls?: ToolCall[];
  plan?: { content: string }[];
}
interface Thread {
  id: string;
  agent: string | null;
  state: string;
  messages: Message[];
  proposals: { id: string; tool: string; status: string; message_id: number }[];
}

let server: TestServer;
let ada: Client;
let record: string;

beforeAll(async () => {
  process.env.AION_TEST_CANARY = 'the-server-environment-leaked';
  record = path.join(await scratchFolder('demo-agent'), 'received.jsonl');
  server = await startTestServer('pglite', {
    demo: true,
    env: {
      AION_AGENTS: JSON.stringify({
        // Outside the sandbox, so it may write its record into the test's folder.
        recorder: { command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env: { DEMO_AGENT_RECORD: record }, sandbox: false },
        missing: { command: 'no-such-agent-command' },
        loader: { command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env: { DEMO_AGENT_LOAD: '1' } },
        stdio: { command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env: { DEMO_AGENT_STDIO_MCP: '1' } },
        // Says its lines without a line break at their end, as a model ends its text blocks.
        bare: { command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], env: { DEMO_AGENT_BARE_LINES: '1' } },
      }),
      // A server secret the agent must not get (the instance key is the store's own, in its data folder).
      AION_METRICS_TOKEN: 'metrics-secret-for-the-server-only',
      AION_AGENT_MAX: '50',
      AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1',
    },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(async () => {
  delete process.env.AION_TEST_CANARY;
  await server.stop();
});

async function openThread(agent = 'demo-agent'): Promise<Thread> {
  const answer = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

async function send(thread: Thread, text: string, expected = 200): Promise<Thread> {
  const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text });
  expect(answer.status, answer.text).toBe(expected);
  return answer.body as Thread;
}

const lastAnswer = (thread: Thread) => thread.messages.filter((m) => m.role === 'assistant').at(-1);

async function share(thread: Thread, text: string) {
  const answer = await ada.put(`/api/v1/assistant/threads/${thread.id}/context`, { document: { path: 'app.yaml', text } });
  expect(answer.status, answer.text).toBe(200);
}

const context = async (thread: Thread) =>
  (await ada.get(`/api/v1/assistant/threads/${thread.id}/context`)).body as { revision: number; document: { text: string } };

describe('agents', () => {
  it('lists the configured agents, with the sentence why one is not available', async () => {
    const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; available: boolean; sentence: string }[];
    expect(listed).toEqual(
      expect.arrayContaining([
        { name: 'demo-agent', title: 'Demo agent', available: true, sentence: '', sandboxed: true },
        { name: 'recorder', title: 'recorder', available: true, sentence: '', sandboxed: false },
        { name: 'missing', title: 'missing', available: false, sentence: 'command not found: no-such-agent-command', sandboxed: true },
      ]),
    );
  });

  it('opens a thread on an agent: 404 for an unknown one, 503 for one that cannot start', async () => {
    expect((await openThread()).agent).toBe('demo-agent');
    expect((await ada.post('/api/v1/assistant/threads', { agent: 'nobody' })).status).toBe(404);
    const missing = await ada.post('/api/v1/assistant/threads', { agent: 'missing' });
    expect(missing.status).toBe(503);
    expect(missing.body).toEqual({ error: 'agent missing is not available: command not found: no-such-agent-command' });
    expect((await ada.post('/api/v1/assistant/threads', {})).body).toMatchObject({ agent: null });
  });
});

describe('a turn of the demo agent', () => {
  it('answers with its text, and a read tool call that ran', async () => {
    const thread = await send(await openThread(), '/say hello\n/tool list_environments {"project": "shop"}');
    const answer = lastAnswer(thread);
    expect(answer?.text).toMatch(/^hello\n\nlist_environments: ok .*staging/s);
    expect(answer?.tool_calls).toEqual([expect.objectContaining({ title: 'list_environments', status: 'completed' })]);
    expect(answer?.stop_reason).toBe('end_turn');
  });

  it('joins its text blocks, before and after a tool call, with a blank line', async () => {
    const thread = await send(await openThread('bare'), '/say First block.\n/tool whoami\n/say Second block.');
    const blocks = lastAnswer(thread)?.text.split('\n\n') ?? [];
    // The tool's result and the line after it are chunks of one block: no tool call came between them.
    expect(blocks).toEqual(['First block.', expect.stringMatching(/^whoami: ok .*"ada".*\}Second block\.$/s)]);
  });

  it('makes a write a proposal on that turn’s answer, run on accept as the operator', async () => {
    const thread = await send(await openThread(), '/tool set_secret {"name": "AGENT_SET", "value": "v1"}\n/say done');
    const answer = lastAnswer(thread);
    expect(answer?.text).toContain('"proposed":true');
    expect(thread.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
    expect(thread.proposals).toEqual([expect.objectContaining({ tool: 'set_secret', status: 'pending', message_id: answer?.id })]);
    expect(thread.state).toBe('waiting');
    const accepted = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${thread.proposals[0]?.id}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect((accepted.body as Thread).proposals[0]?.status).toBe('accepted');
    const audit = await ada.post('/api/v1/assistant/tools/list_secrets', { project: 'shop', environment: 'staging' });
    expect(JSON.stringify(audit.body)).toContain('AGENT_SET');
  });

  it('gives an agent without MCP over HTTP `ops mcp` on stdio, with the same tools and proposals', async () => {
    const thread = await send(await openThread('stdio'), '/tool whoami\n/tool set_secret {"name": "VIA_STDIO", "value": "v"}');
    const answer = lastAnswer(thread);
    expect(answer?.text).toMatch(/^whoami: ok .*"ada"/);
    expect(thread.proposals).toEqual([expect.objectContaining({ tool: 'set_secret', status: 'pending', message_id: answer?.id })]);
  });

  it('rejects a shell and records it as a refused tool call; shows a plan', async () => {
    const thread = await send(await openThread(), '/ask execute rm -rf /\n/plan look; change; check');
    const answer = lastAnswer(thread);
    expect(answer?.text).toContain('ask: stop');
    expect(answer?.tool_calls).toEqual([
      expect.objectContaining({ title: 'rm -rf /', kind: 'execute', status: 'failed', refused: expect.stringContaining('no shell') }),
    ]);
    expect(answer?.plan?.map((e) => e.content)).toEqual(['look', 'change', 'check']);
  });

  it('allows a call of Aion’s own tools, known by the agent’s marker for the aion server, never by its title', async () => {
    const marked = JSON.stringify({ kind: 'other', title: 'list projects', _meta: { claudeCode: { toolName: 'mcp__aion__list_projects' } } });
    const titled = JSON.stringify({ kind: 'other', title: 'mcp__aion__list_projects' });
    const shell = JSON.stringify({ kind: 'execute', title: 'deploy', _meta: { claudeCode: { toolName: 'mcp__aion__deploy' } } });
    const thread = await send(await openThread(), `/ask-call ${marked}\n/ask-call ${titled}\n/ask-call ${shell}`);
    expect(lastAnswer(thread)?.text.split('\n\n')).toEqual(['ask: go', 'ask: stop', 'ask: stop']);
  });

  it('decides a request that came before its call was announced on that announcement, when it follows within a second', async () => {
    // OpenCode's and Kilo's marker: the call's first update, titled with the registered name, kind other, as the request.
    const call = JSON.stringify({ kind: 'other', title: 'aion_list_projects', status: 'pending' });
    const thread = await send(await openThread(), `/ask-late 100 ${call}\n/ask-late 1500 ${call}\n/ask-call ${call}`);
    // Announced 100 ms after: allowed. Announced after the wait (1 s), or never: refused.
    expect(lastAnswer(thread)?.text.split('\n\n')).toEqual(['ask: go', 'ask: stop', 'ask: stop']);
    expect(lastAnswer(thread)?.tool_calls?.map((c) => c.status)).toEqual(['pending', 'failed', 'failed']);
  });

  it('edits and writes the shared buffer, never the stored document; reads the unsaved text', async () => {
    const thread = await openThread();
    await share(thread, 'name: shop\nreplicas: 2\n');
    const before = await context(thread);
    const edited = await send(thread, '/edit replicas: 2 => replicas: 3\n/read app.yaml');
    expect(lastAnswer(edited)?.text).toContain('edit: ok');
    expect(lastAnswer(edited)?.text).toContain('read: name: shop\nreplicas: 3');
    const afterEdit = await context(thread);
    expect(afterEdit.revision).toBe(before.revision + 1);
    const written = await send(thread, '/write name: shop\\nreplicas: 4\\n');
    expect(lastAnswer(written)?.text).toContain('write: ok');
    const afterWrite = await context(thread);
    expect(afterWrite.revision).toBe(afterEdit.revision + 1);
    expect(afterWrite.document.text).toBe('name: shop\nreplicas: 4\n');
    const stored = await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml' });
    expect(JSON.stringify(stored.body)).not.toContain('replicas: 4');
  });

  it('refuses a write of any file but the shared document: no file, no buffer change, nothing stored', async () => {
    const thread = await openThread();
    await share(thread, 'name: shop\n');
    const before = await context(thread);
    const answered = await send(thread, '/write @other.yaml planted: true\n/write @../../outside.yaml planted: true');
    const text = lastAnswer(answered)?.text ?? '';
    expect(text.match(/write: error: .* is not the shared document/g)).toHaveLength(2);
    expect((await context(thread)).revision).toBe(before.revision);
    const listed = await ada.post('/api/v1/assistant/tools/list_documents', { project: 'shop' });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain('other.yaml');
    expect(existsSync(path.resolve(server.dataDir, '..', 'outside.yaml'))).toBe(false);
  });

  it('applies an asked edit of the shared document to the buffer, and refuses one of another file', async () => {
    const thread = await openThread();
    await share(thread, 'name: shop\nreplicas: 2\n');
    const before = await context(thread);
    const answered = await send(thread, '/ask edit replicas: 2 => replicas: 5\n/ask edit other.yaml');
    const answer = lastAnswer(answered);
    expect(answer?.text).toMatch(/ask: go\n\nask: stop/);
    expect(answer?.tool_calls?.[1]).toMatchObject({ status: 'failed', refused: expect.stringContaining('only the shared document') });
    const after = await context(thread);
    expect(after.revision).toBe(before.revision + 1);
    expect(after.document.text).toBe('name: shop\nreplicas: 5\n');
  });

  it('reads another document’s saved text, and nothing outside its folder', async () => {
    const thread = await send(await openThread(), '/read aion.schema.yaml\n/read ../../etc/passwd\n/write nope');
    const text = lastAnswer(thread)?.text ?? '';
    expect(text).toMatch(/read: (?!error)/);
    expect(text).toContain('outside the working folder');
    expect(text).toContain('write: no shared document');
  });

  it('never sends a parked value to the agent, and gives it no server secret', async () => {
    const thread = await openThread('recorder');
    const canary = 'canary-value-7f3a9c';
    const answered = await send(thread, `remember <secret>${canary}</secret> please`);
    expect(lastAnswer(answered)?.text).toContain('[secret:1]');
    const received = readFileSync(record, 'utf8');
    // It was offered files through the client, never a terminal.
    expect(JSON.parse(received.split('\n')[0] ?? '{}')).toMatchObject({ clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false } });
    expect(received).toContain('[secret:1]');
    expect(received).not.toContain(canary);
    const env = lastAnswer(await send(thread, '/env'))?.text ?? '';
    const names = env.replace(/^env: /, '').split(', ');
    // Exactly its own and Aion's (OpenCode's and Kilo's permission rules, which every agent is given): none of the server's, the
    // canary in the server's own environment included. Run without a sandbox, it also carries the mark its processes
    // are ended by (random per process, nothing of the server's).
    expect(names).toEqual(['AION_AGENT_RUN', 'DEMO_AGENT_RECORD', 'HOME', 'KILO_PERMISSION', 'OPENCODE_PERMISSION', 'PATH', 'TMPDIR']);
  });

  it('fails a turn with 503 when the agent crashes, and starts afresh on the next message', async () => {
    const thread = await openThread();
    await send(thread, '/say first');
    const crashed = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/crash' });
    expect(crashed.status).toBe(503);
    expect((crashed.body as { error: string }).error).toMatch(/stopped mid-turn; your message is kept/);
    const again = await send(thread, 'still there?');
    // A new process, a new session: it is given the thread's transcript.
    expect(lastAnswer(again)?.text).toMatch(/^demo-agent: Earlier in this conversation:\noperator: \/say first\nyou: first\n.*still there\?$/s);
    expect(again.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['/say first', '/crash', 'still there?']);
  });

  it('loads the stored session in a new process where the agent can, instead of sending the transcript', async () => {
    const thread = await openThread('loader');
    await send(thread, '/say first');
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/crash' })).status).toBe(503);
    expect(lastAnswer(await send(thread, 'again'))?.text).toBe('demo-agent: again');
  });

  it('cancels a running turn', async () => {
    const thread = await openThread();
    const running = ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/slow 30000\n/say never' });
    await waitFor(() => server.services.turns.cancel(thread.id));
    const answer = await running;
    expect(answer.status).toBe(200);
    expect(lastAnswer(answer.body as Thread)).toMatchObject({ stop_reason: 'cancelled' });
    expect(lastAnswer(answer.body as Thread)?.text).not.toContain('never');
  });

  it('on deletion leaves no process, no credential and no folder', async () => {
    const thread = await openThread();
    await send(thread, '/say hi');
    const pid = server.services.agents.pidOf(thread.id);
    expect(pid).toBeGreaterThan(0);
    const folder = server.services.agents.foldersOf(thread.id).root;
    expect(existsSync(folder)).toBe(true);
    const credentials = await server.services.db.select().from(tokens).where(eq(tokens.threadId, thread.id));
    expect(credentials).toHaveLength(1);
    expect((await ada.delete(`/api/v1/assistant/threads/${thread.id}`)).status).toBe(204);
    expect(alive(pid ?? 0)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    expect(await server.services.db.select().from(tokens).where(eq(tokens.threadId, thread.id))).toHaveLength(0);
  });
});
