// A server run the way teams run it: as its own system user, not root. Its
// sandboxed agent runs with that user's uid, so only the sandbox's reads by
// allow-list stand between it and what the user owns (invariant 18): its
// home (credentials, an env file with the instance key, SSH keys), its data
// folder, another instance's data folder, its files in /tmp. A hostile agent
// registered through AION_AGENTS finds none of them there (ENOENT, not a
// refusal: they are not in its world), while it still reads what it needs.
// The user is made by this test and removed after it; root only.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { descendantsOf, spawnServer, type ServerProcess } from '../helpers/process.js';
import { freshDemoDataDir } from '../helpers/store.js';

const run = promisify(execFile);
const ROOT = process.geteuid?.() === 0;

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

const name = `aion-r${randomBytes(4).toString('hex')}`;
const home = `/home/${name}`;
const canary = `canary-${randomBytes(8).toString('hex')}`;
/** What the user owns, each holding the canary. */
const planted = {
  pgpass: path.join(home, '.pgpass'),
  sshKey: path.join(home, '.ssh', 'id_ed25519'),
  envFile: path.join(home, 'aion.env'),
  otherInstanceKey: path.join(home, 'other-instance', 'secret.key'),
  dataFolderFile: path.join(home, 'aion-data', 'canary.txt'),
  tmpFile: `/tmp/${name}-canary`,
};
const dataDir = path.join(home, 'aion-data');
let uid = 0;
let server: ServerProcess | undefined;
let ada: Client;

async function plant(file: string, owner: { uid: number; gid: number }): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${canary}\n`, { mode: 0o600 });
  await run('chown', ['-R', `${owner.uid}:${owner.gid}`, path.dirname(file) === '/tmp' ? file : path.dirname(file)]);
}

beforeAll(async () => {
  if (!ROOT) return;
  await run('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', name]);
  uid = Number((await run('id', ['-u', name])).stdout.trim());
  const gid = Number((await run('id', ['-g', name])).stdout.trim());
  await chmod(home, 0o700);
  await run('cp', ['-R', `${await freshDemoDataDir()}/.`, dataDir]);
  for (const file of Object.values(planted)) await plant(file, { uid, gid });
  await run('chown', ['-R', `${uid}:${gid}`, dataDir]);
  await chmod(dataDir, 0o700);
  const agents = { hostile: { command: process.execPath, args: [OPS_BIN, 'demo-agent'] } };
  server = await spawnServer(['--demo', '--data', dataDir], { HOME: home, USER: name, LOGNAME: name, AION_AGENTS: JSON.stringify(agents) }, { uid, gid });
  const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
  ada = client(server.url, tokens.ada ?? '');
}, 60_000);

afterAll(async () => {
  if (!ROOT) return;
  await server?.stop();
  await rm(planted.tmpFile, { force: true });
  await run('userdel', ['--remove', name]).catch(() => undefined);
});

describe.runIf(ROOT)('an agent of a server run as a regular user', () => {
  it("reads nothing of that user's: home, data folder, another instance, /tmp", async () => {
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'hostile' });
    expect(opened.status, opened.text).toBe(200);
    const id = (opened.body as Thread).id;
    // Last, a background process of its own session: the server's stop must end it too.
    const lines = ['/uid', ...Object.values(planted).map((file) => `/cat ${file}`), `/cat ${path.join(dataDir, 'secret.key')}`, '/cat /etc/hosts', `/cat ${OPS_BIN}`, `/detach ${name}`];
    const started = Date.now();
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: lines.join('\n') });
    const firstMessageMs = Date.now() - started;
    expect(answer.status, answer.text).toBe(200);
    const said = ((answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '').split('\n');
    // It runs as the server's user: only the sandbox hides the user's files.
    expect(said[0]).toBe(`uid: ${uid}`);
    expect(said.slice(1, 8)).toEqual(Array.from({ length: 7 }, () => 'cat: error ENOENT'));
    expect(said.join('\n')).not.toContain(canary);
    // What it needs is there: the system's files it may read, its own installation.
    expect(said.at(-1)).toMatch(/^detach: \d+$/);
    expect(said.slice(8).filter((line) => line.startsWith('cat: '))).toEqual([expect.stringMatching(/^cat: read /), expect.stringMatching(/^cat: read /)]);
    // The first message starts the sandboxed agent (about 4 s on the shared 2-core machine): bounded loosely.
    expect(firstMessageMs).toBeLessThan(30_000);
  });

  it('leaves no process of the user once the server stopped, its agent’s detached one included', async () => {
    const pid = server?.child.pid ?? 0;
    expect(await server?.stop()).toBe(0);
    expect(descendantsOf(pid)).toEqual([]);
    const left = async () => run('pgrep', ['-a', '-u', String(uid)]).then(({ stdout }) => stdout.trim(), () => '');
    for (let tries = 0; tries < 30 && (await left()) !== ''; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await left()).toBe('');
  });
});
