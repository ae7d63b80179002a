// Two `ops serve` processes on one PostgreSQL serve the same data.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/access/tokens.js';
import { client } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { freshDatabase, freshDataDir, POSTGRES_URL, TEST_SECRET_KEY } from '../helpers/store.js';

describe.skipIf(!POSTGRES_URL)('two servers on one PostgreSQL', () => {
  const adminToken = generateToken('operator');
  let servers: ServerProcess[] = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await freshDatabase();
    const dirs = [await freshDataDir(), await freshDataDir()];
    cleanup = async () => {
      await database.drop();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    };
    const env = { DATABASE_URL: database.url, AION_ADMIN_TOKEN: adminToken, AION_SECRET_KEY: TEST_SECRET_KEY };
    // Started together: migrations and the bootstrap must take turns.
    servers = await Promise.all(dirs.map((dir) => spawnServer(['--demo', '--data', dir], env)));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanup();
  });

  it('bootstraps once and shows each server the other’s writes', async () => {
    const [a, b] = servers.map((s) => client(s.url, adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const seeded = servers.filter((s) => s.stdout.some((line) => line.startsWith('demo token'))).length;
    expect(seeded).toBe(1);

    expect((await a.post('/api/v1/projects', { slug: 'shared' })).status).toBe(201);
    expect(((await b.get('/api/v1/projects')).body as { slug: string }[]).map((p) => p.slug)).toEqual(['shared', 'shop']);

    const minted = (await b.post('/api/v1/tokens', { name: 'roaming' })).body as { id: string; token: string };
    expect((await client(servers[0]?.url ?? '', minted.token).get('/api/v1/projects')).status).toBe(200);
    expect((await a.delete(`/api/v1/tokens/${minted.id}`)).status).toBe(204);
    expect((await client(servers[1]?.url ?? '', minted.token).get('/api/v1/projects')).status).toBe(401);
  });
});
