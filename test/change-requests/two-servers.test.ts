// Racing approvals of one change request across two `ops serve` processes on
// one PostgreSQL: the change runs once, every other approval is a 409. A
// document saved on one server marks a request stale on both (issue 29).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';

describe.skipIf(!POSTGRES_URL)('approvals racing across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(2);
  });
  afterAll(() => cluster.stop());

  it('run the change once', async () => {
    const urls = cluster.servers.map((s) => s.url);
    const [a, b] = urls.map((url) => client(url, cluster.adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const production = { project: 'race', environment: 'production' };
    expect((await a.post('/api/v1/projects', { slug: 'race' })).status).toBe(201);
    await mustCall(a, 'set_environment_protection', { ...production, approvals_required: 2 });
    /** An operator of the project, with a client on each server once both see the membership. */
    const member = async (name: string): Promise<Client[]> => {
      const token = ((await a.post('/api/v1/operators', { name })).body as { token: { token: string } }).token.token;
      expect((await a.post('/api/v1/projects/race/members', { operator: name, role: 'operator' })).status).toBe(201);
      const clients = urls.map((url) => client(url, token));
      for (const one of clients) await expect.poll(async () => (await one.get('/api/v1/projects/race')).status).toBe(200);
      return clients;
    };
    const [asker] = await member('asker');
    const checkers = await member('checker');

    const asked = await mustCall(asker ?? b, 'set_secret', { ...production, name: 'RACED', value: 'v' });
    const id = (asked.change_request as { id: string }).id;
    const answers = await Promise.all(Array.from({ length: 20 }, (_v, i) => checkers[i % 2]?.post(`/api/v1/change-requests/${id}/approve`)));
    const statuses = answers.map((answer) => answer?.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);

    const listed = await mustCall(b, 'list_secrets', production);
    expect(listed.secrets).toEqual([expect.objectContaining({ name: 'RACED', version: 1 })]);
    const { entries } = await mustCall(a, 'read_audit', { project: 'race', tool: 'set_secret' });
    expect(entries).toEqual([expect.objectContaining({ operator: 'asker', outcome: 'ok' })]);
  });

  it('mark a request stale on every server the moment its document is saved on one', async () => {
    const [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const where = { project: 'stale', environment: 'production' };
    expect((await a.post('/api/v1/projects', { slug: 'stale' })).status).toBe(201);
    await mustCall(a, 'set_environment_protection', { ...where, approvals_required: 2 });
    const first = await mustCall(a, 'write_document', { project: 'stale', path: 'app.yaml', text: 'port: 1\n' });
    const asked = await mustCall(a, 'deploy', { ...where, path: 'app.yaml' });
    const id = (asked.change_request as { id: string }).id;
    const saved = await mustCall(b, 'write_document', { project: 'stale', path: 'app.yaml', base_revision: first.revision, text: 'port: 2\n' });
    const reason = `app.yaml has a newer revision, r${String(saved.revision)}, than the r${String(first.revision)} it would deploy; ask again to deploy the newest`;
    for (const server of [a, b]) {
      await expect.poll(async () => ((await server.get(`/api/v1/change-requests/${id}`)).body as { stale_reason: string | null }).stale_reason, { timeout: 10_000 }).toBe(reason);
    }
    expect((await b.get(`/api/v1/change-requests/${id}`)).body).toMatchObject({ status: 'pending', stale: true, can_approve: false });
  });
});
