// Idempotency-Key across two `ops serve` processes on one PostgreSQL: a client
// that retries on B after A answered gets A's answer, and nothing runs twice,
// however the retries race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';

describe.skipIf(!POSTGRES_URL)('Idempotency-Key across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  let a: Client;
  let b: Client;
  const target = { project: 'idem', environment: 'staging', path: 'app.yaml' };
  const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
  const deployments = async () => ((await mustCall(a, 'list_deployments', { project: 'idem', environment: 'staging' })).deployments as unknown[]).length;

  beforeAll(async () => {
    cluster = await startCluster(2, [], { AION_MODEL: 'fake' });
    [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken)) as [Client, Client];
    expect((await a.post('/api/v1/projects', { slug: 'idem' })).status).toBe(201);
    await mustCall(a, 'write_document', { project: 'idem', path: 'app.yaml', text: 'service: idem\nport: 8080\n' });
  });
  afterAll(() => cluster.stop());

  it('answers a retry on B with what A answered, without deploying again', async () => {
    const first = await a.post('/api/v1/assistant/tools/deploy', target, keyed('retry-on-b'));
    expect(first.status).toBe(200);
    const retried = await b.post('/api/v1/assistant/tools/deploy', target, keyed('retry-on-b'));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    expect(await deployments()).toBe(1);
  });

  it('deploys once when retries with one key race on both servers', async () => {
    const before = await deployments();
    const answers = await Promise.all(Array.from({ length: 10 }, (_v, i) => (i % 2 ? a : b).post('/api/v1/assistant/tools/deploy', target, keyed('raced'))));
    const statuses = answers.map((x) => x.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const ran = answers.filter((x) => x.status === 200 && x.headers.get('idempotent-replayed') === null);
    expect(ran.length).toBe(1);
    expect(await deployments()).toBe(before + 1);
    // Once it answered, every retry gets its answer.
    const late = await b.post('/api/v1/assistant/tools/deploy', target, keyed('raced'));
    expect(late.body).toEqual(ran[0]?.body);
  });
});
