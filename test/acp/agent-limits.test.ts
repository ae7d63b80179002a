// A hosted agent's limits (AION_AGENT_PROCESSES, _MEMORY_MB, _SCRATCH_MB,
// _TMP_MB, _CPU_SECONDS), tried through the server by the demo agent in its
// sandbox as a hostile agent would: it forks, allocates and fills its scratch
// folder, /tmp and /dev/shm far past them, and keeps processes of their own
// sessions busy. Each stops at its limit with the reason the system gave (or
// the agent is stopped with the server's sentence), and the server and the
// thread go on.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOr } from '../helpers/process.js';
import { waitFor } from '../helpers/wait.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

/** Whether the agent's Node starts and fails an allocation cleanly under RLIMIT_DATA (Node 26's V8 dies at start). */
const MEMORY_BOUNDABLE = Number(process.versions.node.split('.')[0]) < 26;
/** A turn's CPU budget: far above what the other steps spend, a few seconds of two busy processes. */
const CPU_SECONDS = 3;

let server: TestServer;
let ada: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', {
    demo: true,
    env: { PATH: process.env.PATH ?? '', AION_AGENT_PROCESSES: '48', AION_AGENT_MEMORY_MB: MEMORY_BOUNDABLE ? '512' : '0', AION_AGENT_SCRATCH_MB: '8', AION_AGENT_TMP_MB: '4', AION_AGENT_CPU_SECONDS: String(CPU_SECONDS) },
  });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(() => server?.stop());

async function say(id: string, text: string): Promise<string[]> {
  const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text });
  expect(answer.status, answer.text).toBe(200);
  return ((answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '').split('\n');
}

describe('a sandboxed agent past its limits', () => {
  it('is stopped at each, says why, and the server and its thread go on', async () => {
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const id = (opened.body as Thread).id;
    // At its process limit the agent's own runtime may find no thread to start either: then it is
    // stopped with the sentence (503), and the next message starts it afresh. Either way it never passes 48.
    const forked = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/fork 1000' });
    if (forked.status === 200) {
      const fork = (forked.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '';
      // Its threads and the sandbox's relay count too.
      expect(fork).toMatch(/^fork: \d+ of 1000 \(EAGAIN\)$/);
      expect(Number(/\d+/.exec(fork)?.[0])).toBeLessThan(48);
    } else {
      expect(forked).toMatchObject({ status: 503, body: { error: 'agent demo-agent stopped mid-turn; your message is kept, send another to start it afresh' } });
    }
    if (MEMORY_BOUNDABLE) {
      const [alloc] = await say(id, '/alloc 4096');
      expect(alloc).toMatch(/^alloc: \d+ of 4096 MiB \(RangeError\)$/);
      expect(Number(/\d+/.exec(alloc ?? '')?.[0])).toBeLessThan(512);
    }
    const [scratch, tmp, shm] = await say(id, ['/fill scratch-fill 1024', '/fill /tmp/fill 1024', '/fill /dev/shm/fill 1024'].join('\n'));
    for (const [line, limit] of [[scratch, 8], [tmp, 4], [shm, 4]] as const) {
      expect(line).toMatch(/^fill: \d+ of 1024 MiB \(ENOSPC\)$/);
      expect(Number(/\d+/.exec(line ?? '')?.[0])).toBeLessThanOrEqual(limit);
    }
    expect((await ada.get('/healthz')).status).toBe(200);
    expect(await say(id, '/say still here')).toEqual(['still here']);
  });
});

describe('a sandboxed agent past its CPU time', () => {
  it('is stopped with the sentence, its busy processes (of their own sessions) with it, and the thread goes on', async () => {
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const id = (opened.body as Thread).id;
    const marker = `aion-spin-${randomBytes(6).toString('hex')}`;
    // Two processes each busy until it used 30 s of CPU: counted together, past 3 s long before; the agent itself only waits.
    const spun = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/spin 30 2 ${marker}` });
    expect(spun.status, spun.text).toBe(503);
    const sentence = (spun.body as { error: string }).error;
    expect(sentence).toMatch(
      /^agent demo-agent used \d+\.\d s of CPU time since its turn started, more than its 3 s \(AION_AGENT_CPU_SECONDS\), and was stopped; your message is kept, send another to start it afresh$/,
    );
    expect(Number(/used (\d+\.\d) s/.exec(sentence)?.[1])).toBeGreaterThan(CPU_SECONDS);
    // The sandbox's pid namespace ends with the agent: the busy processes go too.
    await waitFor(() => processesNaming(marker).length === 0);
    expect((await ada.get('/healthz')).status).toBe(200);
    expect(await say(id, '/say still here')).toEqual(['still here']);
    // Two cores shared by many: the busy processes may get a tenth of one.
  }, 180_000);
});

/** Host processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && readOr(`/proc/${name}/cmdline`).includes(marker))
    .map(Number);
}
