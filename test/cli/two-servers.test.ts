// Two `ops serve` processes on one PostgreSQL serve the same data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, heldRequests } from '../helpers/http.js';
import type { ServerProcess } from '../helpers/process.js';
import { POSTGRES_URL } from '../helpers/store.js';

describe.skipIf(!POSTGRES_URL)('two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  let servers: ServerProcess[];
  let adminToken: string;

  beforeAll(async () => {
    cluster = await startCluster(2, ['--demo']);
    ({ servers, adminToken } = cluster);
  });
  afterAll(() => cluster.stop());

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

  it('wakes a context wait on one server when the other records an edit', async () => {
    const [a, b] = servers.map((s) => client(s.url, adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const thread = ((await a.post('/api/v1/assistant/threads', { project: 'shop' })).body as { id: string }).id;
    const started = Date.now();
    const waiting = b.get(`/api/v1/assistant/threads/${thread}/context?after=0&wait=20`);
    await expect.poll(() => heldRequests(servers[1]?.url ?? '')).toBe(1);
    expect((await a.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: 'port: 1\n' } })).status).toBe(200);
    expect((await waiting).body).toMatchObject({ shared: true, revision: 1, document: { text: 'port: 1\n' } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a disabled operator on the other server too, even a token it had cached', async () => {
    const [a, b] = servers.map((s) => client(s.url, adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const printed = servers.flatMap((s) => s.stdout);
    const token = /^demo token for vic: (\S+)$/.exec(printed.find((line) => line.startsWith('demo token for vic:')) ?? '')?.[1] ?? '';
    const onB = client(servers[1]?.url ?? '', token);
    expect((await onB.get('/api/v1/projects')).status).toBe(200);
    expect((await a.post('/api/v1/operators/vic/disable')).status).toBe(200);
    // The notice travels by NOTIFY: wait for it, within a bound.
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) status = (await onB.get('/api/v1/projects')).status;
    expect(status).toBe(401);
  });
});
