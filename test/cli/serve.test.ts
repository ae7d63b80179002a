// `ops serve` as an operator runs it: the built command, its own process.
// These are the suite's few end-to-end starts; the rest of `ops` runs in
// process (ops.test.ts).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { spawnServer } from '../helpers/process.js';
import { freshDataDir } from '../helpers/store.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('ops serve --demo', () => {
  // The folder holds a migrated, empty store (made from scratch by the same
  // code in global-setup.ts): this start creates the owner and seeds the demo.
  it('seeds an empty store once, and keeps everything across a restart', async () => {
    const dataDir = await freshDataDir();
    folders.push(dataDir);

    const first = await spawnServer(['--demo', '--data', dataDir], { AION_ADMIN_TOKEN: '' });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const adminLine = first.stdout.find((line) => line.startsWith('admin token'));
    expect(adminLine).toMatch(/^admin token \(shown once, keep it\): aion_[A-Za-z0-9_-]{43}$/);
    const tokensFile = path.join(dataDir, 'demo-tokens.json');
    const tokens = JSON.parse(await readFile(tokensFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(tokens).sort()).toEqual(['ada', 'admin', 'dev', 'olive', 'vic']);
    for (const token of Object.values(tokens)) expect(token).toMatch(/^aion_[A-Za-z0-9_-]{43}$/);
    expect(adminLine).toBe(`admin token (shown once, keep it): ${tokens.admin}`);

    const ada = client(first.url, tokens.ada ?? '');
    expect((await ada.post('/api/v1/projects', { slug: 'kept' })).status).toBe(201);
    const before = (await ada.get('/api/v1/projects/shop/members')).body;
    expect(await first.stop()).toBe(0);

    const second = await spawnServer(['--demo', '--data', dataDir]);
    try {
      expect(second.stdout.some((line) => line.startsWith('admin token') || line.startsWith('demo token'))).toBe(false);
      expect(second.stdout).toContain(`the store is not empty, so --demo seeded nothing; the demo tokens are in ${tokensFile}`);
      const again = client(second.url, tokens.ada ?? '');
      const projects = (await again.get('/api/v1/projects')).body as { slug: string }[];
      expect(projects.map((p) => p.slug)).toEqual(['kept', 'shop']);
      expect((await again.get('/api/v1/projects/shop/members')).body).toEqual(before);
      const stillSame = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as unknown;
      expect(stillSame).toEqual(tokens);
    } finally {
      await second.stop();
    }
  });

  it('creates the owner admin with AION_ADMIN_TOKEN and prints no token', async () => {
    // An empty store copied from the migrated template: one initdb a file is enough on a loaded machine.
    const dataDir = await freshDataDir();
    folders.push(dataDir);
    const adminToken = 'aion_' + 'k'.repeat(43);
    const server = await spawnServer(['--data', dataDir], { AION_ADMIN_TOKEN: adminToken });
    try {
      expect(server.stdout.join('\n')).not.toContain('admin token');
      const admin = client(server.url, adminToken);
      expect((await admin.post('/api/v1/projects', { slug: 'first' })).status).toBe(201);
      // A second server on the same folder would corrupt the store: it is refused.
      await expect(spawnServer(['--data', dataDir])).rejects.toThrow(/another process \(pid \d+\) is using the store/);
      expect((await admin.get('/api/v1/projects')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad setting with a sentence and exit status 2', async () => {
    await expect(spawnServer(['--port', 'eighty'])).rejects.toThrow(
      /^ops serve exited with 2: ops: port must be a whole number from 0 to 65535; got eighty$/,
    );
  });
});
