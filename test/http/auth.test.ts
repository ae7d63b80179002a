// Bearer authentication on the API: every way a token can be bad is a 401
// with the same sentence; a good one works and is recorded as used.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../src/store/schema.js';
import { client, request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite');
});
afterAll(() => server.stop());

const BAD = { error: 'bad token' };

describe('authentication', () => {
  it('refuses a request without an Authorization header', async () => {
    const answer = await request(server.url, 'GET', '/api/v1/projects');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(BAD);
  });

  it.each([
    ['a scheme other than Bearer', 'Basic YWRtaW46c2VjcmV0'],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with two words', 'Bearer aion_a aion_b'],
    ['an over-long token', `Bearer aion_${'x'.repeat(5000)}`],
  ])('refuses a malformed header: %s', async (_what, header) => {
    const answer = await request(server.url, 'GET', '/api/v1/projects', { headers: { authorization: header } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(BAD);
  });

  it('refuses an unknown token', async () => {
    const answer = await client(server.url, 'aion_' + 'A'.repeat(43)).get('/api/v1/projects');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(BAD);
  });

  it('accepts a valid token and records when it was last used', async () => {
    const admin = client(server.url, server.adminToken);
    const minted = await admin.post('/api/v1/tokens', { name: 'laptop' });
    expect(minted.status).toBe(201);
    const { id, token } = minted.body as { id: string; token: string };
    expect(token).toMatch(/^aion_[A-Za-z0-9_-]{43}$/);

    const before = (await admin.get('/api/v1/tokens')).body as { id: string; last_used_at: string | null }[];
    expect(before.find((t) => t.id === id)?.last_used_at).toBeNull();

    const started = Date.now();
    const used = await client(server.url, token).get('/api/v1/projects');
    expect(used.status).toBe(200);

    const after = (await admin.get('/api/v1/tokens')).body as { id: string; last_used_at: string | null }[];
    const lastUsed = after.find((t) => t.id === id)?.last_used_at;
    expect(lastUsed).not.toBeNull();
    expect(Date.parse(lastUsed ?? '')).toBeGreaterThanOrEqual(started - 1000);
  });

  it('refuses a revoked token at once', async () => {
    const admin = client(server.url, server.adminToken);
    const { id, token } = (await admin.post('/api/v1/tokens', { name: 'short-lived' })).body as {
      id: string;
      token: string;
    };
    expect((await client(server.url, token).get('/api/v1/projects')).status).toBe(200);
    expect((await admin.delete(`/api/v1/tokens/${id}`)).status).toBe(204);
    const answer = await client(server.url, token).get('/api/v1/projects');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(BAD);
    const listed = (await admin.get('/api/v1/tokens')).body as { id: string }[];
    expect(listed.map((t) => t.id)).not.toContain(id);
  });

  it('reads a remembered token again once past the expiry it was read with, so one renewed in the store works on', async () => {
    const admin = client(server.url, server.adminToken);
    const { id, token } = (await admin.post('/api/v1/tokens', { name: 'renewed' })).body as { id: string; token: string };
    const expireIn = (ms: number) => server.services.db.update(tokens).set({ expiresAt: new Date(Date.now() + ms) }).where(eq(tokens.id, id));
    await expireIn(300);
    expect((await client(server.url, token).get('/api/v1/projects')).status).toBe(200);
    // Renewed as a hosted agent's credential is: in the store, unannounced.
    await expireIn(3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await client(server.url, token).get('/api/v1/projects')).status).toBe(200);
  });

  it('refuses a service token on the operator routes', async () => {
    const admin = client(server.url, server.adminToken);
    expect((await admin.post('/api/v1/projects', { slug: 'svc' })).status).toBe(201);
    const minted = await admin.post('/api/v1/tokens', { name: 'web', service: { project: 'svc', environment: 'staging' } });
    expect(minted.status).toBe(201);
    const { token } = minted.body as { token: string };
    expect(token).toMatch(/^aion_svc_[A-Za-z0-9_-]{43}$/);
    for (const path of ['/api/v1/projects', '/api/v1/tokens', '/api/v1/projects/svc']) {
      const answer = await client(server.url, token).get(path);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(BAD);
    }
  });

  it('never writes a token into the log', async () => {
    await client(server.url, server.adminToken).get('/api/v1/projects');
    await client(server.url, 'aion_' + 'B'.repeat(43)).get('/api/v1/projects');
    const all = server.logs.join('\n');
    expect(all).not.toContain(server.adminToken);
    expect(all).not.toContain('B'.repeat(43));
  });
});
