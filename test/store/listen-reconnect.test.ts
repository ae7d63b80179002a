// A server whose LISTEN connection drops keeps nothing in its caches while it
// cannot hear the other servers, and listens again, with backoff, for as long
// as it runs — however many tries fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAdmin, startCluster, type Cluster, type DatabaseAdmin } from '../helpers/cluster.js';
import { client } from '../helpers/http.js';
import type { ServerProcess } from '../helpers/process.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';

const APP = '/api/v1/live/shop/staging/app.yaml';
const DROPPED = 'the connection that hears change notices dropped';
const FAILED_AGAIN = 'listening for change notices failed again';
const BACK = 'change notices reach this server again';

describe.skipIf(!POSTGRES_URL)('the LISTEN connection of a server on PostgreSQL', () => {
  let cluster: Cluster;
  let a: ServerProcess, b: ServerProcess;
  let admin: DatabaseAdmin;
  const asAdmin = (statement: string) => admin.query(statement);
  const logged = (server: ServerProcess, sentence: string) => server.stderr.filter((line) => line.includes(sentence)).length;

  beforeAll(async () => {
    cluster = await startCluster(2, ['--demo'], { AION_LOG_LEVEL: 'info' });
    [a, b] = cluster.servers as [ServerProcess, ServerProcess];
    admin = await databaseAdmin(cluster);
  });
  afterAll(async () => {
    await admin?.end();
    await cluster.stop();
  });

  it('drops the caches while it cannot listen, retries until it can, and hears the other server again', async () => {
    const ops = client(a.url, cluster.adminToken);
    const minted = (await ops.post('/api/v1/tokens', { name: 'svc', service: { project: 'shop', environment: 'staging' } })).body as {
      id: string;
      token: string;
    };
    const service = client(b.url, minted.token);
    // B knows the token and the body: both cached.
    expect((await service.get(APP)).status).toBe(200);
    expect((await service.get(APP)).status).toBe(200);

    // No new connection may reach the database (the pools keep theirs); then every LISTEN connection is cut.
    await asAdmin(`alter database ${admin.database} allow_connections false`);
    await asAdmin(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${admin.database}' and query ilike 'listen%' and pid <> pg_backend_pid()`,
    );
    await until(() => logged(b, DROPPED) === 1);
    // Tries to listen again keep failing, and keep being made.
    await until(() => logged(b, FAILED_AGAIN) >= 2);

    // A revokes the token; B hears nothing of it, but kept nothing, so it asks the store.
    expect((await ops.delete(`/api/v1/tokens/${minted.id}`)).status).toBe(204);
    expect((await service.get(APP)).status).toBe(401);

    await asAdmin(`alter database ${admin.database} allow_connections true`);
    await until(() => logged(b, BACK) === 1 && logged(a, BACK) === 1, 15_000);

    // Listening again: a deploy on A wakes a request held on B.
    const other = (await ops.post('/api/v1/tokens', { name: 'svc-2', service: { project: 'shop', environment: 'staging' } })).body as {
      token: string;
    };
    const reader = client(b.url, other.token);
    const etag = (await reader.get(APP)).headers.get('etag') ?? '';
    const held = reader.get(`${APP}?wait=30`, { headers: { 'if-none-match': etag } });
    await untilAsync(async () => /^aion_held_requests 1$/m.test(await (await fetch(`${b.url}/metrics`)).text()));
    const { revision, text } = await mustCall(ops, 'read_document', { project: 'shop', path: 'app.yaml' });
    await mustCall(ops, 'write_document', { project: 'shop', path: 'app.yaml', text: (text as string).replace(/port: \d+/, 'port: 8555'), base_revision: revision });
    await mustCall(ops, 'deploy', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    const woken = await held;
    expect(woken.status).toBe(200);
    expect(woken.body).toMatchObject({ port: 8555 });
  });
});

/** Polls until `check` holds. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  await untilAsync(async () => check(), ms);
}

async function untilAsync(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
