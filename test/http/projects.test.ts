// The console's and scripts' REST routes: projects, members, operators,
// tokens — each answer and each refusal with its status and sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client, olive: Client, dev: Client, vic: Client, admin: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  const as = (name: string) => {
    const token = server.demoTokens[name];
    if (!token) throw new Error(`no demo token for ${name}`);
    return client(server.url, token);
  };
  [ada, olive, dev, vic] = [as('ada'), as('olive'), as('dev'), as('vic')];
  admin = client(server.url, server.adminToken);
});
afterAll(() => server.stop());

describe('projects', () => {
  it("lists the caller's projects with environments and the caller's role", async () => {
    const answer = await dev.get('/api/v1/projects');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        slug: 'shop',
        name: 'Shop',
        role: 'developer',
        environments: [
          { name: 'production', protected: true, approvals_required: 1, requester_may_approve: false },
          { name: 'staging', protected: false, approvals_required: 1, requester_may_approve: false },
        ],
      },
    ]);
    expect(((await vic.get('/api/v1/projects/shop')).body as { role: string }).role).toBe('viewer');
  });

  it('lets owners create projects and refuses everyone else with 403', async () => {
    const created = await ada.post('/api/v1/projects', { slug: 'billing', name: 'Billing' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'billing', role: 'admin' });

    const refused = await olive.post('/api/v1/projects', { slug: 'mine' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'only owners can create projects; ask an owner of this instance' });

    const again = await ada.post('/api/v1/projects', { slug: 'billing' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'a project named billing already exists; pick another slug' });
  });

  it('answers 404, never 403, for a project the caller is no member of', async () => {
    for (const path of ['/api/v1/projects/billing', '/api/v1/projects/billing/members']) {
      const answer = await dev.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'no such project: billing' });
    }
    expect((await dev.get('/api/v1/projects/nope')).body).toEqual({ error: 'no such project: nope' });
    expect(((await dev.get('/api/v1/projects')).body as { slug: string }[]).map((p) => p.slug)).toEqual(['shop']);
  });
});

describe('members', () => {
  it('lists members for any member', async () => {
    const answer = await vic.get('/api/v1/projects/shop/members');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { operator: 'ada', role: 'admin' },
      { operator: 'dev', role: 'developer' },
      { operator: 'olive', role: 'operator' },
      { operator: 'vic', role: 'viewer' },
    ]);
  });

  it('lets admins add, change and remove members', async () => {
    const created = await admin.post('/api/v1/operators', { name: 'newbie' });
    expect(created.status).toBe(201);

    const added = await ada.post('/api/v1/projects/shop/members', { operator: 'newbie', role: 'viewer' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ operator: 'newbie', role: 'viewer' });
    const again = await ada.post('/api/v1/projects/shop/members', { operator: 'newbie', role: 'developer' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ operator: 'newbie', role: 'developer' });

    const changed = await ada.put('/api/v1/projects/shop/members/newbie', { role: 'operator' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ operator: 'newbie', role: 'operator' });

    expect((await ada.delete('/api/v1/projects/shop/members/newbie')).status).toBe(204);
    const gone = await ada.delete('/api/v1/projects/shop/members/newbie');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'newbie is not a member of shop' });
  });

  it('refuses non-admins with the missing permission and their role', async () => {
    const answer = await olive.put('/api/v1/projects/shop/members/vic', { role: 'admin' });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: 'you need member:manage on shop; your role there is operator' });
    expect((await dev.delete('/api/v1/projects/shop/members/vic')).status).toBe(403);
    expect((await vic.post('/api/v1/projects/shop/members', { operator: 'dev', role: 'admin' })).status).toBe(403);
  });

  it('never removes or demotes the last admin', async () => {
    const removed = await ada.delete('/api/v1/projects/shop/members/ada');
    expect(removed.status).toBe(409);
    expect(removed.body).toEqual({ error: 'cannot remove ada, the last admin of shop; make another member admin first' });
    expect((await ada.put('/api/v1/projects/shop/members/ada', { role: 'viewer' })).status).toBe(409);
    expect(((await ada.get('/api/v1/projects/shop/members')).body as { role: string }[])[0]).toEqual({
      operator: 'ada',
      role: 'admin',
    });
  });
});

describe('operators and tokens', () => {
  it('gives a new operator a first token that works', async () => {
    const created = await ada.post('/api/v1/operators', { name: 'sam' });
    expect(created.status).toBe(201);
    const body = created.body as { name: string; owner: boolean; token: { token: string } };
    expect(body).toMatchObject({ name: 'sam', owner: false });
    const sam = client(server.url, body.token.token);
    expect((await sam.get('/api/v1/projects')).body).toEqual([]);

    expect((await ada.post('/api/v1/operators', { name: 'sam' })).status).toBe(409);
    const refused = await sam.post('/api/v1/operators', { name: 'eve' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'only owners can create operators; ask an owner of this instance' });
  });

  it("shows each operator only their own tokens, and lets only them revoke", async () => {
    const mine = (await dev.post('/api/v1/tokens', { name: 'dev-laptop' })).body as { id: string };
    const listed = (await vic.get('/api/v1/tokens')).body as { id: string }[];
    expect(listed.map((t) => t.id)).not.toContain(mine.id);
    const revoke = await vic.delete(`/api/v1/tokens/${mine.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toEqual({ error: `no such token: ${mine.id}; list yours with GET /api/v1/tokens` });
    expect(((await dev.get('/api/v1/tokens')).body as { id: string }[]).map((t) => t.id)).toContain(mine.id);
  });

  it('lets only owners mint service tokens, for an environment that exists', async () => {
    const refused = await olive.post('/api/v1/tokens', { name: 'svc', service: { project: 'shop', environment: 'staging' } });
    expect(refused.status).toBe(403);
    const missing = await ada.post('/api/v1/tokens', { name: 'svc', service: { project: 'shop', environment: 'qa' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'no such environment: qa in shop' });
    const minted = await ada.post('/api/v1/tokens', { name: 'svc', service: { project: 'shop', environment: 'staging' } });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ kind: 'service', name: 'svc' });
  });
});
