// A hostile agent, through the server as an operator would meet it: the demo
// agent in its sandbox (the default wherever bubblewrap runs), acting on its
// host without asking. It cannot read the data folder's key or store, the
// server's /proc and environment, write outside its scratch folder, reach a
// host it was not given, or run as root; it reaches Aion.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_AGENT_UID_BASE } from '../../src/acp/agent-uids.js';
import { randomBytes } from 'node:crypto';
import { client, type Client } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { OPS_BIN, REPO_ROOT } from '../helpers/paths.js';
import { readOr, spawnServer, type ServerProcess } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

const run_ = promisify(execFile);
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

/**
 * What the sandbox hides, as the agent would name it: the data folder's key,
 * demo tokens and store, and its own scratch folder's parent (the server's,
 * which holds the other agents' folders and the file naming the server),
 * reached from its working folder.
 */
function hiddenPaths(dataDir: string): string[] {
  return [...['secret.key', 'demo-tokens.json', 'pgdata/PG_VERSION'].map((file) => path.join(dataDir, file)), '../../owner'];
}

/** The agents' folders (os.tmpdir()/aion-agents-*) of the server in process `pid`, by the owner file each holds. */
function scratchRootsOf(pid: number): string[] {
  return readdirSync(os.tmpdir())
    .filter((name) => name.startsWith('aion-agents-'))
    .filter((name) => {
      try {
        return readFileSync(path.join(os.tmpdir(), name, 'owner'), 'utf8').startsWith(`${pid} `);
      } catch {
        return false;
      }
    });
}

async function run(lines: string[], as: Client = ada): Promise<string[]> {
  const opened = await as.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
  const id = (opened.body as Thread).id;
  const answer = await as.post(`/api/v1/assistant/threads/${id}/messages`, { text: lines.join('\n') });
  expect(answer.status, answer.text).toBe(200);
  return ((answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '').split('\n');
}

describe('the demo agent as a hostile agent, in its sandbox', () => {
  it('is listed as sandboxed', async () => {
    const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; sandboxed: boolean }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: 'demo-agent', sandboxed: true }));
  });

  it('reads nothing of the data folder, the server’s processes or its environment', async () => {
    const said = await run([`/cat /proc/${process.pid}/environ`, `/cat /proc/${process.pid}/cmdline`, '/env', '/uid']);
    expect(said.slice(0, 2)).toEqual([expect.stringMatching(/^cat: error /), expect.stringMatching(/^cat: error /)]);
    expect(said[2]).not.toContain(CANARY);
    if (process.getuid?.() === 0) expect(Number(said[3]?.replace('uid: ', ''))).toBeGreaterThanOrEqual(DEFAULT_AGENT_UID_BASE);
    else expect(said[3]).not.toBe('uid: 0');
  });

  it('finds each hidden path not there (ENOENT), not merely closed to it', async () => {
    // A path closed by its permissions (EACCES) would still be the server's, there to be tried: hidden means absent.
    for (const file of hiddenPaths(server.dataDir).slice(0, -1)) expect(existsSync(file), file).toBe(true);
    expect(await run(hiddenPaths(server.dataDir).map((file) => `/cat ${file}`))).toEqual(hiddenPaths(server.dataDir).map(() => 'cat: error ENOENT'));
    // The server's folder holding the agents' (`../../owner` from the agent's work folder) is there on the host.
    expect(scratchRootsOf(process.pid).length).toBeGreaterThan(0);
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

// A server run by a regular user runs its agents as that user: the data folder
// is theirs to read but for the sandbox, which must hide it all the same.
describe.runIf(process.getuid?.() === 0)('the demo agent of a server run by a regular user', () => {
  const user = { uid: 65534, gid: 65534 };
  let spawned: ServerProcess;
  let dataDir: string;
  let home: string;
  let olive: Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-hostile-data-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'aion-hostile-home-'));
    await run_('cp', ['-R', `${inject('pgliteDemoTemplate')}/.`, dataDir]);
    await run_('chown', ['-R', `${user.uid}:${user.gid}`, dataDir, home]);
    spawned = await spawnServer(['--demo', '--data', dataDir], { AION_ADMIN_TOKEN: '', HOME: home, PATH: process.env.PATH ?? '' }, user);
    const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
    olive = client(spawned.url, tokens.olive ?? '');
  });
  afterAll(async () => {
    await spawned?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('runs its agent as that user, and finds each hidden path not there (ENOENT)', async () => {
    const said = await run(['/uid', ...hiddenPaths(dataDir).map((file) => `/cat ${file}`)], olive);
    expect(said).toEqual([`uid: ${user.uid}`, ...hiddenPaths(dataDir).map(() => 'cat: error ENOENT')]);
    expect(scratchRootsOf(spawned.child.pid ?? 0).length).toBeGreaterThan(0);
  });
});

/** Host processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && readOr(`/proc/${name}/cmdline`).includes(marker))
    .map(Number);
}
