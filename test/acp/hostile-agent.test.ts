// A hostile agent, through the server as an operator would meet it: the demo
// agent in its sandbox (the default wherever bubblewrap runs), acting on its
// host without asking. It cannot read the data folder's key or store, the
// server's /proc and environment, write outside its scratch folder, reach a
// host it was not given, or run as root; it reaches Aion.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_UID_BASE } from '../../src/acp/agent-uids.js';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { client, type Client } from '../helpers/http.js';
import { readOr } from '../helpers/process.js';
import { waitFor } from '../helpers/wait.js';
import { OPS_BIN, REPO_ROOT } from '../helpers/paths.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

const CANARY = 'AION_HOSTILE_CANARY';
let server: TestServer;
let ada: Client;
let forbidden: http.Server;
const forbiddenHits: string[] = [];

beforeAll(async () => {
  process.env[CANARY] = 'the-server-environment-leaked';
  forbidden = http.createServer((req, res) => {
    forbiddenHits.push(req.url ?? '');
    res.end('reached');
  });
  await new Promise<void>((resolve) => forbidden.listen(0, '127.0.0.1', resolve));
  server = await startTestServer('pglite', { demo: true, env: { PATH: process.env.PATH ?? '' } });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(async () => {
  delete process.env[CANARY];
  await server?.stop();
  forbidden?.close();
});

async function run(lines: string[]): Promise<string[]> {
  const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
  const id = (opened.body as Thread).id;
  const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: lines.join('\n') });
  expect(answer.status, answer.text).toBe(200);
  return ((answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '').split('\n');
}

describe('the demo agent as a hostile agent, in its sandbox', () => {
  it('is listed as sandboxed', async () => {
    const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; sandboxed: boolean }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: 'demo-agent', sandboxed: true }));
  });

  it('reads nothing of the data folder, the server’s processes or its environment', async () => {
    const said = await run([
      `/cat ${path.join(server.dataDir, 'secret.key')}`,
      `/cat ${path.join(server.dataDir, 'demo-tokens.json')}`,
      `/cat /proc/${process.pid}/environ`,
      `/cat /proc/${process.pid}/cmdline`,
      '/env',
      '/uid',
    ]);
    expect(said.slice(0, 4)).toEqual([expect.stringMatching(/^cat: error /), expect.stringMatching(/^cat: error /), expect.stringMatching(/^cat: error /), expect.stringMatching(/^cat: error /)]);
    expect(said[4]).not.toContain(CANARY);
    if (process.getuid?.() === 0) expect(Number(said[5]?.replace('uid: ', ''))).toBeGreaterThanOrEqual(DEFAULT_AGENT_UID_BASE);
    else expect(said[5]).not.toBe('uid: 0');
  });

  it('writes only its scratch folder', async () => {
    // The server's own files, the system's, and /tmp.
    const outside = [path.join(REPO_ROOT, `planted-${Date.now()}`), path.join(OPS_BIN), `/tmp/aion-planted-${Date.now()}`];
    const said = await run([...outside.map((file) => `/touch ${file}`), `/touch ${path.join(server.dataDir, 'planted')}`, '/touch planted-in-scratch']);
    expect(said.slice(0, 2)).toEqual([expect.stringMatching(/^touch: error E(ROFS|ACCES|PERM)/), expect.stringMatching(/^touch: error E(ROFS|ACCES|PERM)/)]);
    // /tmp is the sandbox's own tmpfs: the write lands there, never in the host's.
    expect(said[2]).toBe('touch: wrote');
    // The data folder is not there, or hidden behind an empty read-only folder of the sandbox's own.
    expect(said[3]).toMatch(/^touch: error E(NOENT|ROFS)/);
    expect(existsSync(path.join(server.dataDir, 'planted'))).toBe(false);
    expect(said[4]).toBe('touch: wrote');
    for (const file of [outside[0] ?? '', outside[2] ?? '']) expect(existsSync(file)).toBe(false);
  });

  it('reaches Aion and no other host', async () => {
    const port = (forbidden.address() as AddressInfo).port;
    const said = await run([`/connect ${server.url}/healthz`, `/connect http://127.0.0.1:${port}/`, '/connect http://example.com/']);
    expect(said[0]).toBe('connect: status 200');
    expect(said[1]).toMatch(/^connect: error /);
    expect(said[2]).toMatch(/^connect: (error |status 403)/);
    expect(forbiddenHits).toEqual([]);
  });

  it('leaves nothing running after Stop, not even a process that left its group', async () => {
    const marker = `aion-detached-${randomBytes(6).toString('hex')}`;
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const id = (opened.body as Thread).id;
    const detached = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/detach ${marker}` });
    expect(detached.status, detached.text).toBe(200);
    await waitFor(() => processesNaming(marker).length > 0);
    // A turn the agent honours the cancel of: it stays, but its background process must not.
    const slow = ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 20000' });
    await waitFor(() => server.services.turns.cancel(id));
    const answer = await slow;
    expect(answer.status, answer.text).toBe(200);
    await waitFor(() => processesNaming(marker).length === 0);
  });
});

/** Host processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && readOr(`/proc/${name}/cmdline`).includes(marker))
    .map(Number);
}
