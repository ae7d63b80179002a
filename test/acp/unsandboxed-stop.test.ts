// An agent run without a sandbox (the admin's `"sandbox": false`) has no pid
// namespace to end with it: what it started in a session of its own (setsid)
// or by a double fork must still end with Stop and with the server's
// shutdown, found by the mark in its environment (src/acp/marked-processes).
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { readOr } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

const loose = { title: 'Loose demo', command: process.execPath, args: [OPS_BIN, 'demo-agent'], sandbox: false };
/** A root server runs an unsandboxed agent only when told it may (as root). */
const env = { PATH: process.env.PATH ?? '', AION_AGENTS: JSON.stringify({ loose }), AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' };
const markers: string[] = [];

let server: TestServer;
let ada: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true, env });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(async () => {
  await server?.stop();
  // A failed run leaves nothing behind either.
  for (const pid of markers.flatMap(processesNaming)) process.kill(pid, 'SIGKILL');
});

/** A thread of the unsandboxed agent, with a process started by setsid and one by a double fork, both running. */
async function leaveBehind(as: Client): Promise<{ id: string; marker: string }> {
  const marker = `aion-loose-${randomBytes(6).toString('hex')}`;
  markers.push(marker);
  const opened = await as.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'loose' });
  expect(opened.status, opened.text).toBe(200);
  const id = (opened.body as Thread).id;
  const answer = await as.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/detach ${marker}\n/orphan ${marker}` });
  expect(answer.status, answer.text).toBe(200);
  const said = (answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '';
  expect(said).toMatch(/^detach: \d+\norphan: started\n?$/);
  await waitFor(() => processesNaming(marker).length === 2);
  return { id, marker };
}

describe('an unsandboxed agent', () => {
  it('is listed as not sandboxed', async () => {
    const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; sandboxed: boolean; available: boolean }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: 'loose', sandboxed: false, available: true }));
  });

  it('leaves nothing running after Stop, not even what called setsid or double-forked', async () => {
    const { id, marker } = await leaveBehind(ada);
    // A turn the agent honours the cancel of: Stop then stops the agent, and all it started with it.
    const slow = ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 20000' });
    await waitFor(() => server.services.turns.cancel(id));
    const answer = await slow;
    expect(answer.status, answer.text).toBe(200);
    await waitFor(() => processesNaming(marker).length === 0);
    // The thread goes on with a fresh agent.
    const again = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say still here' });
    expect((again.body as Thread).messages.at(-1)?.text.trim()).toBe('still here');
  });

  it("leaves nothing running after the server's shutdown", async () => {
    const other = await startTestServer('pglite', { demo: true, env });
    let stopped = false;
    try {
      const { marker } = await leaveBehind(client(other.url, other.demoTokens.ada ?? ''));
      stopped = true;
      await other.stop();
      await waitFor(() => processesNaming(marker).length === 0);
    } finally {
      if (!stopped) await other.stop();
    }
  });
});

/** Host processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && readOr(`/proc/${name}/cmdline`).includes(marker))
    .map(Number);
}
