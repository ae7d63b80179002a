// A server killed outright (SIGKILL: no handler runs) leaves no process of
// its own behind — the sandbox library's socat bridge included — and no
// bridge socket in /tmp; the scratch folder and proxy socket it could not
// remove go at the next start of a server of the same user.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/access/tokens.js';
import { client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { descendantsOf, spawnServer, stateOf, type ServerProcess } from '../helpers/process.js';
import { freshDataDir } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';
import { sandboxProblem, stopSandboxes } from '../../src/acp/sandbox.js';

const canSandbox = (await sandboxProblem()) === null;
await stopSandboxes();

const folders: string[] = [];
const started: ServerProcess[] = [];
afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function serverWithAgent(): Promise<{ server: ServerProcess; adminToken: string }> {
  const dataDir = await freshDataDir();
  folders.push(dataDir);
  const adminToken = generateToken('operator');
  const server = await spawnServer(['--data', dataDir], {
    AION_ADMIN_TOKEN: adminToken,
    AION_AGENTS: JSON.stringify({ demo: { command: process.execPath, args: [OPS_BIN, 'demo-agent'] } }),
  });
  started.push(server);
  return { server, adminToken };
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

describe.skipIf(!canSandbox)('a server killed with SIGKILL', () => {
  it('leaves no process, no socket, and its scratch folder goes at the next start', async () => {
    const { server, adminToken } = await serverWithAgent();
    const admin = client(server.url, adminToken);
    const opened = await admin.post('/api/v1/assistant/threads', { agent: 'demo' });
    const id = (opened.body as { id: string }).id;
    const answer = await admin.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say hi' });
    expect(answer.status, answer.text).toBe(200);

    const ours = descendantsOf(server.child.pid ?? -1);
    // The library's bridge on the host, and the agent (bubblewrap) with its working folder in the scratch folder.
    const sockets = ours.flatMap((pid) => cmdline(pid).flatMap((arg) => /^UNIX-LISTEN:([^,]+)/.exec(arg)?.[1] ?? []));
    expect(sockets.length).toBeGreaterThan(0);
    const work = ours
      .map((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/cwd`);
        } catch {
          return '';
        }
      })
      .find((cwd) => cwd.endsWith(path.join(id, 'work')));
    expect(work).toBeDefined();
    const scratchRoot = path.dirname(path.dirname(work ?? ''));

    server.child.kill('SIGKILL');
    await waitFor(() => server.child.exitCode !== null || server.child.signalCode !== null);
    let left: number[] = [];
    try {
      await waitFor(() => {
        left = ours.filter((pid) => ![null, 'Z'].includes(stateOf(pid)));
        return left.length === 0;
      }, 5_000);
    } catch {
      // Said below, with what is left.
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left.map((pid) => cmdline(pid).join(' '))).toEqual([]);
    await waitFor(() => sockets.every((socket) => !existsSync(socket)), 3_000).catch(() => undefined);
    expect(sockets.filter((socket) => existsSync(socket))).toEqual([]);
    expect(existsSync(scratchRoot)).toBe(true);

    // The next server of this user removes what the dead one could not.
    await serverWithAgent();
    expect(existsSync(scratchRoot)).toBe(false);
    expect(readdirSync(os.tmpdir()).filter((name) => name.startsWith(`srt-mux-${server.child.pid}-`))).toEqual([]);
  });
});
