// The live endpoint: what a service reads with its service token — secrets
// resolved, the ETag, 304, long polls, and a token that reaches its own
// environment only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, heldRequests, request, type Client } from '../helpers/http.js';
import type { ServerProcess } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { POSTGRES_URL, STORE_KINDS } from '../helpers/store.js';
import { demoClients, mustCall } from '../helpers/tools.js';

const project = 'shop';
const STAGING_URL = 'postgres://shop:demo-staging@db.staging.internal:5432/shop';
const APP = '/api/v1/live/shop/staging/app.yaml';

describe.each(STORE_KINDS)('live configuration (%s)', (kind) => {
  let server: TestServer;
  let ada: Client, dev: Client;
  /** A service token for shop/staging, and a client that uses it. */
  let serviceToken: string;
  let service: Client;
  /** Listeners of change notices before any request is held. */
  let baseline: number;

  const mintServiceToken = async (where: { project: string; environment: string }) => {
    const minted = await ada.post('/api/v1/tokens', { name: `svc-${where.environment}`, service: where });
    expect(minted.status).toBe(201);
    return (minted.body as { token: string }).token;
  };
  /** Saves a new revision of app.yaml on port `port` and deploys it to staging; answers the deployment number. */
  const deployPort = async (port: number) => {
    const { revision, text } = await mustCall(dev, 'read_document', { project, path: 'app.yaml' });
    const changed = (text as string).replace(/port: \d+/, `port: ${port}`);
    await mustCall(dev, 'write_document', { project, path: 'app.yaml', text: changed, base_revision: revision });
    return (await mustCall(dev, 'deploy', { project, environment: 'staging', path: 'app.yaml' })).deployment as number;
  };
  /** How many requests the server holds. */
  const listeners = () => server.services.changes.waiting;

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada, dev } = demoClients(server));
    serviceToken = await mintServiceToken({ project, environment: 'staging' });
    service = client(server.url, serviceToken);
    baseline = listeners();
  });
  afterAll(() => server.stop());

  it('answers the live document with secrets resolved, its ETag the deployment number and the secret versions', async () => {
    const answer = await service.get(APP);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toMatch(/^"2\.[0-9a-f]{12}"$/);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ service: 'shop', port: 8080, database: { url: STAGING_URL }, features: { new_checkout: true } });
  });

  it('answers 304 when If-None-Match names the current ETag', async () => {
    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    for (const tag of [etag, `W/${etag}`, `"1", ${etag}`, '*']) {
      const answer = await service.get(APP, { headers: { 'if-none-match': tag } });
      expect(answer.status).toBe(304);
      expect(answer.headers.get('etag')).toBe(etag);
      expect(answer.text).toBe('');
    }
    for (const tag of ['"1"', '"2"']) expect((await service.get(APP, { headers: { 'if-none-match': tag } })).status).toBe(200);
  });

  it('holds a request with wait until a newer deployment lands', async () => {
    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    const held = service.get(`${APP}?wait=30`, { headers: { 'if-none-match': etag } });
    await until(() => listeners() > baseline);
    const deployment = await deployPort(8081);
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toMatch(new RegExp(`^"${deployment}\\.`));
    expect(answer.body).toMatchObject({ port: 8081, database: { url: STAGING_URL } });
  });

  it('answers 304 when nothing newer lands within the wait, whatever else changes', async () => {
    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    const started = Date.now();
    const held = service.get(`${APP}?wait=1`, { headers: { 'if-none-match': etag } });
    await until(() => listeners() > baseline);
    // Another path of the same project: wakes the request, which reads again and keeps waiting.
    await mustCall(dev, 'write_document', { project, path: 'other.yaml', text: 'service: other\nport: 1\n' });
    await mustCall(dev, 'deploy', { project, environment: 'staging', path: 'other.yaml' });
    const answer = await held;
    expect(answer.status).toBe(304);
    expect(answer.headers.get('etag')).toBe(etag);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('answers at once when the client has no ETag or an older one, even with wait', async () => {
    const started = Date.now();
    expect((await service.get(`${APP}?wait=30`)).status).toBe(200);
    expect((await service.get(`${APP}?wait=30`, { headers: { 'if-none-match': '"1"' } })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('releases the waiter of a client that disconnects', async () => {
    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    const aborted = new AbortController();
    const held = fetch(`${server.url}${APP}?wait=60`, {
      headers: { authorization: `Bearer ${serviceToken}`, 'if-none-match': etag },
      signal: aborted.signal,
    }).catch((error: unknown) => error);
    await until(() => listeners() > baseline);
    aborted.abort();
    await held;
    await until(() => listeners() === baseline);
  });

  it('refuses a wait over 60 seconds with 422', async () => {
    const answer = await service.get(`${APP}?wait=61`);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: 'querystring.wait must be <= 60' });
  });

  it('answers 404 for another environment, another project, or nothing live there', async () => {
    await ada.post('/api/v1/projects', { slug: 'billing' });
    for (const path of [
      '/api/v1/live/shop/production/app.yaml',
      '/api/v1/live/billing/staging/app.yaml',
      '/api/v1/live/shop/staging/nope.yaml',
      '/api/v1/live/shop/staging/aion.schema.yaml',
    ]) {
      const answer = await service.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: `nothing is live at ${path.slice('/api/v1/live/'.length)}` });
    }
    const production = client(server.url, await mintServiceToken({ project, environment: 'production' }));
    const answer = await production.get('/api/v1/live/shop/production/app.yaml');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ database: { url: 'postgres://shop:demo-production@db.production.internal:5432/shop' } });
    expect((await production.get(APP)).status).toBe(404);
  });

  it('accepts service tokens only, and service tokens nowhere else', async () => {
    for (const token of [server.demoTokens.ada, server.adminToken, undefined]) {
      const answer = await request(server.url, 'GET', APP, { token: token ?? null });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'bad token' });
    }
    for (const path of ['/api/v1/projects', '/api/v1/projects/shop', '/api/v1/tokens']) {
      expect((await service.get(path)).status).toBe(401);
    }
    expect((await service.post('/api/v1/assistant/tools/list_documents', { project })).status).toBe(401);
  });

  it('never writes a secret value to the log', async () => {
    await server.services.drain();
    const logs = server.logs.join('\n');
    expect(logs).toContain('/api/v1/live/shop/staging/app.yaml');
    expect(logs).not.toContain('demo-staging');
    expect(logs).not.toContain('demo-production');
  });
});

describe.skipIf(!POSTGRES_URL)('live configuration across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  let servers: ServerProcess[];
  let adminToken: string;

  beforeAll(async () => {
    cluster = await startCluster(2, ['--demo']);
    ({ servers, adminToken } = cluster);
  });
  afterAll(() => cluster.stop());

  it('releases a request held on one server when the other deploys', async () => {
    const [a, b] = servers.map((s) => client(s.url, adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const minted = await a.post('/api/v1/tokens', { name: 'svc', service: { project, environment: 'staging' } });
    const service = client(servers[1]?.url ?? '', (minted.body as { token: string }).token);

    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    const held = service.get(`${APP}?wait=30`, { headers: { 'if-none-match': etag } });
    // The request is held once its server counts it in its gauge.
    await expect.poll(() => heldRequests(servers[1]?.url ?? '')).toBeGreaterThan(0);
    const { revision, text } = await mustCall(a, 'read_document', { project, path: 'app.yaml' });
    const changed = (text as string).replace('port: 8080', 'port: 8090');
    await mustCall(a, 'write_document', { project, path: 'app.yaml', text: changed, base_revision: revision });
    await mustCall(a, 'deploy', { project, environment: 'staging', path: 'app.yaml' });

    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toMatch(/^"3\./);
    expect(answer.body).toMatchObject({ port: 8090, database: { url: STAGING_URL } });
  });

  it('wakes every request held on one server with the new body when the other deploys', async () => {
    const [a] = servers.map((s) => client(s.url, adminToken));
    if (!a) throw new Error('two servers expected');
    const minted = await a.post('/api/v1/tokens', { name: 'svc-many', service: { project, environment: 'staging' } });
    const service = client(servers[1]?.url ?? '', (minted.body as { token: string }).token);
    const etag = (await service.get(APP)).headers.get('etag') ?? '';
    const held = Array.from({ length: 100 }, () => service.get(`${APP}?wait=30`, { headers: { 'if-none-match': etag } }));
    await expect.poll(() => heldRequests(servers[1]?.url ?? ''), { timeout: 15_000 }).toBe(100);

    const { revision, text } = await mustCall(a, 'read_document', { project, path: 'app.yaml' });
    await mustCall(a, 'write_document', { project, path: 'app.yaml', text: (text as string).replace(/port: \d+/, 'port: 8091'), base_revision: revision });
    const deployment = (await mustCall(a, 'deploy', { project, environment: 'staging', path: 'app.yaml' })).deployment as number;
    for (const answer of await Promise.all(held)) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toMatch(new RegExp(`^"${deployment}\\.`));
      expect(answer.body).toMatchObject({ port: 8091, database: { url: STAGING_URL } });
    }
  });

  it('refuses on one server a service token revoked on the other, though its body is cached', async () => {
    const [a] = servers.map((s) => client(s.url, adminToken));
    if (!a) throw new Error('two servers expected');
    const minted = (await a.post('/api/v1/tokens', { name: 'svc-revoked', service: { project, environment: 'staging' } })).body as {
      id: string;
      token: string;
    };
    const service = client(servers[1]?.url ?? '', minted.token);
    expect((await service.get(APP)).status).toBe(200);
    expect((await service.get(APP)).status).toBe(200);
    expect((await a.delete(`/api/v1/tokens/${minted.id}`)).status).toBe(204);
    // The other server hears of it when PostgreSQL delivers the commit's notice: milliseconds.
    await expect.poll(async () => (await service.get(APP)).status).toBe(401);
  });
});



/** Polls until `check` holds (at most 5 s). */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
