// Racing accepts of one proposal across two `ops serve` processes on one
// PostgreSQL: one execution, every other accept a 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';

describe.skipIf(!POSTGRES_URL)('accepts racing across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(2, [], { AION_MODEL: 'fake' });
  });
  afterAll(() => cluster.stop());

  it('runs the proposal once', async () => {
    const [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken));
    if (!a || !b) throw new Error('two servers expected');
    expect((await a.post('/api/v1/projects', { slug: 'race' })).status).toBe(201);
    const thread = (await a.post('/api/v1/assistant/threads', { project: 'race', environment: 'staging' })).body as { id: string };
    const answer = await b.post(`/api/v1/assistant/threads/${thread.id}/messages`, {
      text: '/tool set_secret {"name": "RACED", "value": "v"}',
    });
    const proposal = (answer.body as { proposals: { id: string }[] }).proposals[0]?.id;
    const path = `/api/v1/assistant/threads/${thread.id}/proposals/${proposal}/accept`;
    const answers = await Promise.all(Array.from({ length: 20 }, (_v, i) => (i % 2 ? a : b).post(path)));
    const statuses = answers.map((x) => x.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const listed = (await b.post('/api/v1/assistant/tools/list_secrets', { project: 'race', environment: 'staging' })).body as {
      result: { secrets: { name: string; version: number }[] };
    };
    expect(listed.result.secrets).toEqual([expect.objectContaining({ name: 'RACED', version: 1 })]);
  });
});
