// Running Aion for a team with `ops`: usage and exit status, a first start
// that fails cleanly, a lost owner token, the instance key, backups. The
// commands run in this process (test/helpers/ops.ts); the binary itself is
// tried in serve.test.ts.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/access/tokens.js';
import { startServer } from '../../src/cli/serve.js';
import { readConfig, SERVE_ENVIRONMENT, StartError } from '../../src/config.js';
import { openStore, pgliteFolder } from '../../src/store/db.js';
import { auditEntries, operators, secrets } from '../../src/store/schema.js';
import { client } from '../helpers/http.js';
import { ops, serveFolder } from '../helpers/ops.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { scratchFolder } from '../helpers/scratch.js';
import { freshDatabase, freshDataDir, POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';

const run = promisify(execFile);
const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await freshDataDir();
  folders.push(dir);
  return dir;
}

const KEY_1 = Buffer.alloc(32, 1).toString('base64');
const KEY_2 = Buffer.alloc(32, 2).toString('base64');

describe('ops usage', () => {
  it('prints its version, from npx in a checkout too', async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await ops(['--version'])).toEqual({ code: 0, stdout: [version], stderr: [] });
    // Offline: the suite talks to nothing beyond this machine, and npx would ask the registry about itself.
    // No scripts: npx's first run in a checkout installs it into its cache, which runs `prepare` (the build) here,
    // rewriting dist/ under the servers of the tests running beside this one (their pages lost their assets).
    const offline = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' };
    const { stdout } = await run('npx', ['--no-install', 'ops', '--version'], { cwd: REPO_ROOT, env: offline });
    expect(stdout).toBe(`${version}\n`);
  });

  it('lists each serve flag with its default, and every environment variable the settings read', async () => {
    const { code, stdout } = await ops(['serve', '--help']);
    expect(code).toBe(0);
    const help = stdout.join('\n').replace(/\s+/g, ' ');
    expect(help).toContain('(default: "8080", env: AION_PORT)');
    expect(help).toContain('(default: "127.0.0.1", env: AION_HOST)');
    expect(help).toContain('(default: ".aion", env: AION_DATA)');
    expect(help).toMatch(/--demo .*\(default: false\)/);
    const read = new Set([...(await readFile(path.join(REPO_ROOT, 'src/config.ts'), 'utf8')).matchAll(/env\.([A-Z_]+)/g)].map((m) => m[1]));
    expect(read.size).toBeGreaterThan(10);
    for (const name of read) expect(help, name).toContain(name);
    for (const [name] of SERVE_ENVIRONMENT) expect(read.has(name), name).toBe(true);
  });

  it('exits 2 on a usage error, 1 when it refuses', async () => {
    for (const args of [['serve', '--bogus'], ['nonsense'], ['backup'], ['serve', '--port', 'eighty', '--data', 'unused']]) {
      const { code, stderr } = await ops(args);
      expect([args, code]).toEqual([args, 2]);
      expect(stderr.join('\n')).not.toMatch(/\n\s+at /);
    }
    expect((await ops(['serve', '--port', 'eighty'])).stderr).toEqual(['ops: port must be a whole number from 0 to 65535; got eighty']);
    const nowhere = path.join(await dataDir(), 'nothing-here');
    for (const args of [['admin', 'token'], ['rotate-key'], ['backup', path.join(nowhere, 'b')]]) {
      expect(await ops([...args, '--data', nowhere])).toEqual({ code: 1, stdout: [], stderr: [`ops: there is no store in ${nowhere}; name its folder with --data`] });
    }
    const empty = await ops(['admin', 'token', '--data', await dataDir()]);
    expect(empty).toEqual({
      code: 1,
      stdout: [],
      stderr: ['ops: the store has no operators yet; start the server once (ops serve) and it creates the owner admin'],
    });
  });
});

describe('a first start that cannot finish', () => {
  it('takes the port before it creates the owner: a busy port is one sentence, and the store keeps no owner', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const dir = await dataDir();
    try {
      const started = startServer(readConfig({ host: '127.0.0.1', port, data: dir }, { AION_LOG_LEVEL: 'warn' }), () => {
        throw new Error('nothing may be printed');
      });
      await expect(started).rejects.toThrow(new StartError(`port ${port} on 127.0.0.1 is in use; stop what is listening there, or pick another --port`));
    } finally {
      busy.close();
    }
    const store = await openStore({ dataDir: dir, databaseUrl: null });
    try {
      expect(await store.db.$count(operators)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('says in one sentence that --data is a file', async () => {
    const file = path.join(await dataDir(), 'a-file');
    await writeFile(file, 'not a folder\n');
    expect(await ops(['serve', '--port', '0', '--data', file])).toEqual({
      code: 2,
      stdout: [],
      stderr: [`ops: the data folder ${file} is a file, or lies inside one; pick a folder with --data`],
    });
  });

  // Root writes anywhere, so only another user can see this refusal.
  it.skipIf(process.getuid?.() === 0)('says in one sentence that --data cannot be written', async () => {
    const locked = path.join(await dataDir(), 'locked');
    await mkdir(locked, { mode: 0o500 });
    expect(await ops(['serve', '--port', '0', '--data', path.join(locked, 'data')])).toEqual({
      code: 2,
      stdout: [],
      stderr: [`ops: cannot write to the data folder ${path.join(locked, 'data')}; give this user write access to it, or pick another --data`],
    });
  });

  it.skipIf(!POSTGRES_URL)('names a missing PostgreSQL database and how to create it; the command works as written', async () => {
    const url = new URL(POSTGRES_URL ?? '');
    const name = `aion_missing_${process.pid}_${Date.now()}`;
    url.pathname = `/${name}`;
    const env = { DATABASE_URL: url.toString(), AION_SECRET_KEY: KEY_1, AION_LOG_LEVEL: 'warn' };
    const { code, stderr } = await ops(['serve', '--port', '0'], env);
    expect(code).toBe(1);
    expect(stderr).toHaveLength(1);
    const command = /^ops: database (\S+) does not exist on PostgreSQL at \S+; create it with: (createdb .+)$/.exec(stderr[0] ?? '');
    expect(command?.[1]).toBe(name);
    const [program, ...args] = (command?.[2] ?? '').split(' ');
    await run(program ?? '', args);
    try {
      const server = await startServer(readConfig({ port: 0 }, { ...env, AION_ADMIN_TOKEN: generateToken('operator') }), () => {});
      await server.close();
    } finally {
      const admin = new URL(POSTGRES_URL ?? '');
      await run('dropdb', ['-h', admin.hostname, '-p', admin.port || '5432', '-U', admin.username || 'postgres', '--force', name]);
    }
  });
});

describe('ops admin token', () => {
  it('mints a new owner token from the store, audited, and refuses while a server holds the embedded store', async () => {
    const dir = await dataDir();
    const first = await serveFolder(dir, { env: { AION_ADMIN_TOKEN: generateToken('operator') } });
    await first.close();

    const minted = await ops(['admin', 'token', '--data', dir]);
    expect(minted.code).toBe(0);
    expect(minted.stdout).toEqual([expect.stringMatching(/^aion_[A-Za-z0-9_-]{43}$/)]);
    expect(minted.stderr).toEqual(['ops admin token: a new token for the owner admin, shown once (audited as token:create via cli)']);
    expect((await ops(['admin', 'token', '--data', dir, '--operator', 'nobody'])).stderr).toEqual([
      'ops: no operator named nobody; name an owner with --operator',
    ]);

    // A server holding the store (another live process) keeps the command out.
    const lock = path.join(pgliteFolder(dir), 'aion.lock');
    await writeFile(lock, `${process.ppid}\n`);
    expect((await ops(['admin', 'token', '--data', dir])).stderr).toEqual([
      `ops: another process (pid ${process.ppid}) is using the store in ${pgliteFolder(dir)}; stop it first, or pick another --data`,
    ]);
    await rm(lock);

    const again = await serveFolder(dir);
    try {
      const owner = client(again.url, minted.stdout[0] ?? '');
      expect((await owner.post('/api/v1/operators', { name: 'helper' })).status).toBe(201);
      const audited = await again.store.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.tool, 'token:create'), eq(auditEntries.via, 'cli')));
      expect(audited).toEqual([expect.objectContaining({ operator: 'admin', outcome: 'ok', input: expect.objectContaining({ kind: 'operator' }) })]);
      expect(JSON.stringify(audited)).not.toContain(minted.stdout[0]);
      // An owner who was disabled gets no token: it would be refused.
      await again.store.db.update(operators).set({ owner: true, disabledAt: new Date() }).where(eq(operators.name, 'helper'));
    } finally {
      await again.close();
    }
    expect((await ops(['admin', 'token', '--data', dir, '--operator', 'helper'])).stderr).toEqual([
      'ops: helper is disabled; name an enabled owner with --operator',
    ]);
  });
});

describe.skipIf(!POSTGRES_URL)('ops admin token on PostgreSQL', () => {
  it('mints beside a running server, which accepts the token at once', async () => {
    const database = await freshDatabase();
    const env = { DATABASE_URL: database.url, AION_SECRET_KEY: KEY_1, AION_LOG_LEVEL: 'warn', AION_ADMIN_TOKEN: generateToken('operator') };
    const server = await startServer(readConfig({ port: 0, data: await dataDir() }, env), () => {});
    try {
      const minted = await ops(['admin', 'token'], { DATABASE_URL: database.url });
      expect(minted.code).toBe(0);
      expect((await client(server.url, minted.stdout[0] ?? '').post('/api/v1/operators', { name: 'helper' })).status).toBe(201);
    } finally {
      await server.close();
      await database.drop();
    }
  });
});

/** A store with the project `p` and one secret in staging, sealed under `key`. */
async function storeWithSecret(key: string, adminToken: string): Promise<string> {
  const dir = await dataDir();
  const server = await serveFolder(dir, { env: { AION_ADMIN_TOKEN: adminToken, AION_SECRET_KEY: key } });
  try {
    const admin = client(server.url, adminToken);
    expect((await admin.post('/api/v1/projects', { slug: 'p' })).status).toBe(201);
    await mustCall(admin, 'set_secret', { project: 'p', environment: 'staging', name: 'API_KEY', value: 'the-value' });
  } finally {
    await server.close();
  }
  return dir;
}

async function secretValues(dir: string, env: Record<string, string>): Promise<string[]> {
  const server = await serveFolder(dir, { env });
  try {
    const rows = await server.store.db.select({ sealed: secrets.sealed }).from(secrets);
    return rows.map((row) => server.services.secretBox.open(row.sealed));
  } finally {
    await server.close();
  }
}

describe('the instance key', () => {
  it('refuses a wrong key at start, and rotate-key moves every secret to a new key', async () => {
    const dir = await storeWithSecret(KEY_1, generateToken('operator'));
    const wrong = `the instance key from AION_SECRET_KEY does not open this store's secrets; start with the key the store was made with (ops rotate-key changes it)`;
    await expect(serveFolder(dir, { env: { AION_SECRET_KEY: KEY_2 } })).rejects.toThrow(new StartError(wrong));

    const rotated = await ops(['rotate-key', '--data', dir], { AION_SECRET_KEY: KEY_1, AION_NEW_SECRET_KEY: KEY_2 });
    expect(rotated).toEqual({
      code: 0,
      stdout: [],
      stderr: [
        'ops rotate-key: 1 sealed values now under the new key',
        'ops rotate-key: restart every server with AION_SECRET_KEY set to the value of AION_NEW_SECRET_KEY',
      ],
    });
    await expect(serveFolder(dir, { env: { AION_SECRET_KEY: KEY_1 } })).rejects.toThrow(new StartError(wrong));
    expect(await secretValues(dir, { AION_SECRET_KEY: KEY_2 })).toEqual(['the-value']);
  });

  it('replaces the key file of the embedded store', async () => {
    const dir = await dataDir();
    const adminToken = generateToken('operator');
    const server = await serveFolder(dir, { env: { AION_ADMIN_TOKEN: adminToken } });
    try {
      const admin = client(server.url, adminToken);
      expect((await admin.post('/api/v1/projects', { slug: 'p' })).status).toBe(201);
      await mustCall(admin, 'set_secret', { project: 'p', environment: 'staging', name: 'K', value: 'v1' });
    } finally {
      await server.close();
    }
    const before = await readFile(path.join(dir, 'secret.key'), 'utf8');
    const rotated = await ops(['rotate-key', '--data', dir]);
    expect(rotated.stderr.at(-1)).toBe(`ops rotate-key: the new key is in ${path.join(dir, 'secret.key')}`);
    expect(await readFile(path.join(dir, 'secret.key'), 'utf8')).not.toBe(before);
    expect(await secretValues(dir, {})).toEqual(['v1']);
  });

  it.skipIf(!POSTGRES_URL)('refuses a second server on the same PostgreSQL with another key', async () => {
    const database = await freshDatabase();
    try {
      const env = (key: string) => ({ DATABASE_URL: database.url, AION_SECRET_KEY: key, AION_LOG_LEVEL: 'warn', AION_ADMIN_TOKEN: generateToken('operator') });
      const first = await startServer(readConfig({ port: 0, data: await dataDir() }, env(KEY_1)), () => {});
      try {
        await expect(startServer(readConfig({ port: 0, data: await dataDir() }, env(KEY_2)), () => {})).rejects.toThrow(
          /the instance key from AION_SECRET_KEY does not open this store's secrets/,
        );
      } finally {
        await first.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('ops backup and ops restore', () => {
  it('copies the embedded store, refuses while a server holds it, and restores into a new folder', async () => {
    const adminToken = generateToken('operator');
    const dir = await storeWithSecret(KEY_1, adminToken);
    const file = path.join(await scratchFolder('backup'), 'aion.backup');
    folders.push(path.dirname(file));

    const lock = path.join(pgliteFolder(dir), 'aion.lock');
    await writeFile(lock, `${process.ppid}\n`);
    expect(await ops(['backup', file, '--data', dir])).toMatchObject({ code: 1, stderr: [expect.stringMatching(/^ops: another process \(pid \d+\) is using the store/)] });
    await rm(lock);

    const made = await ops(['backup', file, '--data', dir]);
    expect(made.code).toBe(0);
    const later = await serveFolder(dir, { env: { AION_SECRET_KEY: KEY_1 } });
    expect((await client(later.url, adminToken).post('/api/v1/projects', { slug: 'later' })).status).toBe(201);
    await later.close();

    const target = await scratchFolder('restored');
    folders.push(target);
    expect((await ops(['restore', file, '--data', target])).code).toBe(0);
    const restored = await serveFolder(target, { env: { AION_SECRET_KEY: KEY_1 } });
    try {
      const projects = (await client(restored.url, adminToken).get('/api/v1/projects')).body as { slug: string }[];
      expect(projects.map((p) => p.slug)).toEqual(['p']);
      const [sealed] = await restored.store.db.select({ value: secrets.sealed }).from(secrets);
      expect(restored.services.secretBox.open(sealed?.value ?? '')).toBe('the-value');
    } finally {
      await restored.close();
    }

    expect((await ops(['restore', file, '--data', target])).stderr).toEqual([
      `ops: ${target} already holds a store; restore into a new --data folder, or move this one aside first`,
    ]);
    expect(await ops(['backup', file, '--data', dir], { DATABASE_URL: 'postgres://127.0.0.1/aion' })).toEqual({
      code: 2,
      stdout: [],
      stderr: ['ops: ops backup is for the embedded store; back PostgreSQL up with pg_dump and pg_restore instead'],
    });
  });

});
