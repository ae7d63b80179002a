// The OS sandbox an agent runs in (src/acp/sandbox.ts), tried by a hostile
// script run inside it the way the host spawns an agent: what it can read,
// see, write and reach, as whom, and that stopping it leaves nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_LIMITS } from '../../src/acp/agent-limits.js';
import { DEFAULT_AGENT_UID_BASE } from '../../src/acp/agent-uids.js';
import { sandboxed, sandboxProblem, type SandboxedCommand, type SandboxSpec } from '../../src/acp/sandbox.js';

interface Attempt {
  ok: boolean;
  value?: unknown;
  error?: string;
}
interface Report {
  uid: number;
  noNewPrivs: string;
  readData: Attempt;
  testProcessVisible: boolean;
  readEnviron: Attempt;
  canarySeen: boolean;
  writeOutside: Attempt;
  writeData: Attempt;
  writeScratch: Attempt;
  allowed: Attempt;
  aion: Attempt;
  forbidden: Attempt;
  forbiddenViaProxy: Attempt;
  allowedViaProxy: Attempt;
  env: Record<string, string | undefined>;
}

// Run by `node` inside the sandbox; argv: data file, data folder, test pid, canary, a path outside, a path in scratch, three ports.
const HOSTILE = `
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
const [dataFile, dataDir, testPid, canary, outside, inScratch, allowedPort, aionPort, forbiddenPort] = process.argv.slice(2);
const attempt = async (fn) => { try { return { ok: true, value: await fn() }; } catch (e) { return { ok: false, error: String(e.cause?.code ?? e.code ?? e.message) }; } };
const get = (port) => attempt(async () => (await fetch('http://127.0.0.1:' + port + '/', { signal: AbortSignal.timeout(3000) })).text());
const proxy = new URL(process.env.HTTP_PROXY);
const viaProxy = (port) => attempt(() => new Promise((resolve, reject) => {
  const auth = Buffer.from(decodeURIComponent(proxy.username) + ':' + decodeURIComponent(proxy.password)).toString('base64');
  const request = http.request({ host: '127.0.0.1', port: Number(proxy.port), method: 'CONNECT', path: '127.0.0.1:' + port, headers: { 'proxy-authorization': 'Basic ' + auth } });
  request.on('connect', (response, socket) => { socket.destroy(); resolve(response.statusCode); });
  request.on('error', reject);
  request.end();
}));
const environs = () => readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).map((pid) => { try { return readFileSync('/proc/' + pid + '/environ', 'utf8'); } catch { return ''; } });
const report = {
  uid: process.getuid(),
  noNewPrivs: /NoNewPrivs:\\s*(\\d)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1],
  readData: await attempt(() => readFileSync(dataFile, 'utf8')),
  testProcessVisible: existsSync('/proc/' + testPid),
  readEnviron: await attempt(() => readFileSync('/proc/' + testPid + '/environ', 'utf8')),
  canarySeen: environs().some((environ) => environ.includes(canary)),
  writeOutside: await attempt(() => writeFileSync(outside, 'planted')),
  writeData: await attempt(() => writeFileSync(dataDir + '/planted', 'planted')),
  writeScratch: await attempt(() => { writeFileSync(inScratch, 'mine'); return readFileSync(inScratch, 'utf8'); }),
  allowed: await get(allowedPort),
  aion: await get(aionPort),
  forbidden: await get(forbiddenPort),
  forbiddenViaProxy: await viaProxy(forbiddenPort),
  allowedViaProxy: await viaProxy(allowedPort),
  env: { HTTP_PROXY: process.env.HTTP_PROXY && 'set', NO_PROXY: process.env.NO_PROXY, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR },
};
console.log(JSON.stringify(report));
`;

// Starts a grandchild that leaves the process group (its own session), prints its marker, and waits.
const ESCAPER = `
import { spawn } from 'node:child_process';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', process.argv[2]], { detached: true, stdio: 'ignore' }).unref();
console.log('ready');
setInterval(() => {}, 1000);
`;

// Tries each limit in turn, as a hostile agent would, and reports how far it got; argv: its scratch HOME.
const GREEDY = `
import { spawn } from 'node:child_process';
import { writeFileSync, appendFileSync } from 'node:fs';
const mib = Buffer.alloc(1024 * 1024, 1);
const fill = (file) => { let written = 0; try { writeFileSync(file, ''); for (; written < 1024; written++) appendFileSync(file, mib); return { written }; } catch (e) { return { written, error: e.code }; } };
const children = [];
let forkError;
for (let i = 0; i < 1000; i++) {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const failed = await new Promise((resolve) => { child.once('spawn', () => resolve(null)); child.once('error', (e) => resolve(e.code)); });
  if (failed) { forkError = failed; break; }
  children.push(child);
}
const processes = children.length;
for (const child of children) child.kill('SIGKILL');
const held = [];
let allocated = 0;
let allocError;
try { for (; allocated < Number(process.argv[3]); allocated += 64) held.push(Buffer.alloc(64 * 1024 * 1024, 1)); } catch (e) { allocError = e.name; }
held.length = 0;
const report = { processes, forkError, allocated, allocError, scratch: fill(process.argv[2] + '/fill'), tmp: fill('/tmp/fill'), shm: fill('/dev/shm/fill') };
console.log(JSON.stringify(report));
`;

let root: string;
let data: string;
let scratch: string;
let home: string;
let work: string;
let hostile: string;
let escaper: string;
let greedy: string;
/** Whether this Node starts and fails an allocation cleanly under RLIMIT_DATA (Node 26 dies at start). */
const MEMORY_BOUNDABLE = Number(process.versions.node.split('.')[0]) < 26;
const servers: http.Server[] = [];
let allowedPort: number;
let aionPort: number;
let forbiddenPort: number;
const canary = `canary-${randomBytes(8).toString('hex')}`;

async function listen(answer: string): Promise<number> {
  const server = http.createServer((_request, response) => response.end(answer));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

function spec(overrides: Partial<SandboxSpec> = {}): SandboxSpec {
  return { scratch, denyRead: [data], allowHosts: [`127.0.0.1:${allowedPort}`], aionUrl: `http://127.0.0.1:${aionPort}`, uidBase: DEFAULT_AGENT_UID_BASE, limits: DEFAULT_AGENT_LIMITS, ...overrides };
}

/** Spawned as the host spawns an agent: its own process group, piped stdio. */
function start(command: SandboxedCommand): ChildProcess {
  return spawn(command.command, command.args, { cwd: work, env: command.env, uid: command.uid, gid: command.gid, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
}

async function output(child: ChildProcess): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { stdout, stderr, code };
}

/** Host processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aion-sandbox-test-'));
  // Everything but the scratch folders is readable and writable to every
  // user here, so only the sandbox stands between the agent and it.
  await chmod(root, 0o755);
  data = path.join(root, 'data');
  await mkdir(data, { mode: 0o777 });
  await chmod(data, 0o777);
  await writeFile(path.join(data, 'secret.key'), 'the secret', { mode: 0o644 });
  const agents = path.join(root, 'agents');
  await mkdir(agents, { mode: 0o711 });
  scratch = path.join(agents, 'one');
  home = path.join(scratch, 'home');
  work = path.join(scratch, 'work');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await mkdir(work, { mode: 0o700 });
  hostile = path.join(root, 'hostile.mjs');
  escaper = path.join(root, 'escaper.mjs');
  greedy = path.join(root, 'greedy.mjs');
  await writeFile(greedy, GREEDY, { mode: 0o644 });
  await writeFile(hostile, HOSTILE, { mode: 0o644 });
  await writeFile(escaper, ESCAPER, { mode: 0o644 });
  [allowedPort, aionPort, forbiddenPort] = await Promise.all([listen('allowed'), listen('aion'), listen('forbidden')]);
  process.env.AION_SANDBOX_CANARY = canary;
});

afterAll(async () => {
  delete process.env.AION_SANDBOX_CANARY;
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the agent sandbox', () => {
  it('can start here', async () => {
    expect(await sandboxProblem()).toBeNull();
  });

  it('hides the data folder and the server, keeps writes in scratch and the network to Aion and allow_hosts', async () => {
    const outside = path.join(os.tmpdir(), `aion-sandbox-planted-${randomBytes(4).toString('hex')}`);
    const command = await sandboxed(
      process.execPath,
      [hostile, path.join(data, 'secret.key'), data, String(process.pid), canary, outside, path.join(home, 'mine'), String(allowedPort), String(aionPort), String(forbiddenPort)],
      { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      spec(),
    );
    try {
      const { stdout, stderr, code } = await output(start(command));
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as Report;

      expect(report.readData).toMatchObject({ ok: false, error: 'ENOENT' });
      expect(report.testProcessVisible).toBe(false);
      expect(report.readEnviron.ok).toBe(false);
      expect(report.canarySeen).toBe(false);

      // /tmp is the sandbox's own: a write there lands nowhere on the host.
      expect(report.writeOutside).toEqual({ ok: true });
      expect(existsSync(outside)).toBe(false);
      // A hidden folder is not there, or (inside an allowed one) an empty read-only tmpfs.
      expect(report.writeData).toMatchObject({ ok: false, error: expect.stringMatching(/^(ENOENT|EROFS)$/) });
      expect(existsSync(path.join(data, 'planted'))).toBe(false);
      // The scratch folder too is a tmpfs of the sandbox's (of its size): the host's disk gets nothing.
      expect(report.writeScratch).toEqual({ ok: true, value: 'mine' });
      expect(existsSync(path.join(home, 'mine'))).toBe(false);

      expect(report.allowed).toEqual({ ok: true, value: 'allowed' });
      expect(report.aion).toEqual({ ok: true, value: 'aion' });
      expect(report.forbidden.ok).toBe(false);
      expect(report.forbiddenViaProxy).toEqual({ ok: true, value: 403 });
      expect(report.allowedViaProxy).toEqual({ ok: true, value: 200 });

      expect(report.uid).not.toBe(0);
      if (process.getuid?.() === 0) expect(report.uid).toBe(command.uid);
      expect(report.noNewPrivs).toBe('1');
      expect(report.env).toEqual({ HTTP_PROXY: 'set', NO_PROXY: 'localhost,127.0.0.1,::1', HOME: home, TMPDIR: path.join(scratch, 'tmp') });
    } finally {
      await command.dispose();
    }
  });

  it("never gets another agent's allow_hosts, not even through the shared proxy", async () => {
    const other = await sandboxed(process.execPath, ['-e', '0'], { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, spec());
    const command = await sandboxed(
      process.execPath,
      [hostile, path.join(data, 'secret.key'), data, String(process.pid), canary, path.join(root, 'nowhere'), path.join(home, 'mine'), String(allowedPort), String(aionPort), String(forbiddenPort)],
      { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      spec({ allowHosts: [] }),
    );
    try {
      const { stdout, stderr, code } = await output(start(command));
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as Report;
      expect(report.allowed.ok).toBe(false);
      expect(report.allowedViaProxy).toEqual({ ok: true, value: 403 });
      expect(report.aion).toEqual({ ok: true, value: 'aion' });
    } finally {
      await Promise.all([command.dispose(), other.dispose()]);
    }
  });

  it('is stopped with everything it started, even a child that left its process group', async () => {
    const marker = `aion-escaper-${randomBytes(6).toString('hex')}`;
    const command = await sandboxed(process.execPath, [escaper, marker], { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, spec());
    try {
      const child = start(command);
      const exited = output(child);
      await new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString('utf8').includes('ready') && resolve()));
      expect(await until(() => processesNaming(marker).length > 0, 3000)).toBe(true);
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      await exited;
      expect(await until(() => processesNaming(marker).length === 0, 3000)).toBe(true);
    } finally {
      await command.dispose();
    }
  });

  it('bounds its processes, memory, scratch folder, /tmp and /dev/shm', async () => {
    // A memory limit only where the runtime starts under one (Node 26's V8 does not: AION_AGENT_MEMORY_MB).
    const limits = { processes: 64, memoryMiB: MEMORY_BOUNDABLE ? 512 : 0, scratchMiB: 8, tmpMiB: 4, cpuSeconds: 0 };
    const command = await sandboxed(process.execPath, [greedy, home, MEMORY_BOUNDABLE ? '4096' : '0'], { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, spec({ limits }));
    try {
      const started = Date.now();
      const { stdout, stderr, code } = await output(start(command));
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as Record<string, unknown>;
      // Node's own threads and the sandbox's relay count too.
      expect(report.forkError).toBe('EAGAIN');
      expect(report.processes).toBeLessThan(limits.processes);
      if (MEMORY_BOUNDABLE) {
        expect(report.allocError).toBe('RangeError');
        expect(report.allocated).toBeLessThan(limits.memoryMiB);
      }
      expect(report.scratch).toEqual({ written: expect.any(Number), error: 'ENOSPC' });
      expect((report.scratch as { written: number }).written).toBeLessThanOrEqual(limits.scratchMiB);
      expect(report.tmp).toEqual({ written: expect.any(Number), error: 'ENOSPC' });
      expect((report.tmp as { written: number }).written).toBeLessThanOrEqual(limits.tmpMiB);
      expect(report.shm).toEqual({ written: expect.any(Number), error: 'ENOSPC' });
      expect((report.shm as { written: number }).written).toBeLessThanOrEqual(limits.tmpMiB);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await command.dispose();
    }
  });

  it('refuses a scratch folder inside a denied one, or on the proxy port', async () => {
    await expect(sandboxed('true', [], {}, spec({ denyRead: [path.dirname(scratch)] }))).rejects.toThrow(/outside the denied folder/);
    await expect(sandboxed('true', [], {}, spec({ allowHosts: ['127.0.0.1:3128'] }))).rejects.toThrow(/proxy listens/);
  });

  it.runIf(process.getuid?.() === 0)('says so when the agent user cannot reach its scratch folder', async () => {
    const closed = path.join(root, 'closed');
    await mkdir(path.join(closed, 'agent'), { recursive: true, mode: 0o700 });
    await chmod(closed, 0o700);
    await expect(sandboxed('true', [], {}, spec({ scratch: path.join(closed, 'agent') }))).rejects.toThrow(/not reachable by uid \d+.*closed is mode 0700/);
  });
});
