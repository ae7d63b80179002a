// The sandbox library's start leaves the server's signal handlers, and
// SIGTERM takes the graceful path whenever it comes: while the sandbox
// library starts (it registers signal handlers of its own, which must not
// take the server's with them) and after, with an agent running — the agent
// stops, its credential is revoked, its scratch folder goes, the exit code
// is 0. On both stores.
import { existsSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/access/tokens.js';
import { sandboxProblem, stopSandboxes } from '../../src/acp/sandbox.js';
import { openStore } from '../../src/store/db.js';
import { tokens } from '../../src/store/schema.js';
import { client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { descendantsOf, spawnServer, stateOf, type ServerProcess } from '../helpers/process.js';
import { freshDatabase, freshDataDir, STORE_KINDS, TEST_SECRET_KEY, type StoreKind } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

const canSandbox = (await sandboxProblem()) === null;
await stopSandboxes();

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

interface Started {
  server: ServerProcess;
  adminToken: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  location: { dataDir: string; databaseUrl: string | null };
}

async function start(kind: StoreKind): Promise<Started> {
  const dataDir = await freshDataDir();
  const database = kind === 'postgres' ? await freshDatabase() : null;
  cleanups.push(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  });
  const adminToken = generateToken('operator');
  const server = await spawnServer(['--data', dataDir], {
    AION_ADMIN_TOKEN: adminToken,
    AION_LOG_LEVEL: 'info',
    AION_AGENTS: JSON.stringify({ demo: { command: process.execPath, args: [OPS_BIN, 'demo-agent'] } }),
    ...(database ? { DATABASE_URL: database.url, AION_SECRET_KEY: TEST_SECRET_KEY } : {}),
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) resolve({ code: server.child.exitCode, signal: server.child.signalCode });
    server.child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await exited;
  });
  return { server, adminToken, exited, location: { dataDir, databaseUrl: database?.url ?? null } };
}

describe.skipIf(!canSandbox)('the sandbox library’s start', () => {
  it('leaves the handlers the server registers meanwhile', async () => {
    const registered: (() => void)[] = [];
    // Dozens of handlers on purpose: no "possible memory leak" warning in the suite's output for them.
    const maxListeners = process.getMaxListeners();
    process.setMaxListeners(0);
    let done = false;
    const starting = sandboxProblem().finally(() => (done = true));
    // One new handler of each signal every few milliseconds, until the start is over.
    while (!done) {
      const handler = () => undefined;
      registered.push(handler);
      process.on('SIGTERM', handler);
      process.on('SIGINT', handler);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    try {
      expect(await starting).toBeNull();
      expect(registered.length).toBeGreaterThan(1);
      for (const signal of ['SIGTERM', 'SIGINT'] as const) expect(registered.filter((handler) => !process.listeners(signal).includes(handler))).toEqual([]);
    } finally {
      for (const handler of registered) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.removeListener(signal, handler);
      process.setMaxListeners(maxListeners);
      await stopSandboxes();
    }
  });
});

const shutDown = (server: ServerProcess) => server.stderr.some((line) => line.includes('shutting down'));

describe.skipIf(!canSandbox).each(STORE_KINDS)('SIGTERM on %s', (kind) => {
  it('while the sandbox starts: the graceful path', async () => {
    const { server, exited } = await start(kind);
    server.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(shutDown(server)).toBe(true);
  });

  it('after the sandbox started, with an agent running: it stops, its credential is revoked, its scratch folder goes', async () => {
    const { server, adminToken, exited, location } = await start(kind);
    const admin = client(server.url, adminToken);
    const id = ((await admin.post('/api/v1/assistant/threads', { agent: 'demo' })).body as { id: string }).id;
    const answer = await admin.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say hi' });
    expect(answer.status, answer.text).toBe(200);
    const ours = descendantsOf(server.child.pid ?? -1);
    const work = ours.map(cwdOf).find((cwd) => cwd.endsWith(path.join(id, 'work')));
    expect(work).toBeDefined();
    const scratch = path.dirname(work ?? '');

    server.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(shutDown(server)).toBe(true);
    await waitFor(() => ours.every((pid) => [null, 'Z'].includes(stateOf(pid))), 5_000);
    expect(existsSync(scratch)).toBe(false);
    const store = await openStore(location);
    try {
      const revoked = await store.db
        .select({ id: tokens.id })
        .from(tokens)
        .where(and(eq(tokens.threadId, id), eq(tokens.name, 'hosted agent'), isNotNull(tokens.revokedAt)));
      expect(revoked.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});

function cwdOf(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '';
  }
}
