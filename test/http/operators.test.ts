// Operators: owners list them and disable one. A disabled operator's every
// token is refused at once (even one this server had cached), and what they
// did stays in the audit and the revisions.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';

const BAD = { error: 'bad token' };
let server: TestServer;
let admin: Client, ada: Client, dev: Client, vic: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  admin = client(server.url, server.adminToken);
  ({ ada, dev, vic } = demoClients(server));
});
afterAll(() => server.stop());

describe('operators', () => {
  it('are listed for owners, disabled or not, with their last use', async () => {
    await dev.get('/api/v1/projects');
    const answer = await admin.get('/api/v1/operators');
    expect(answer.status).toBe(200);
    const listed = answer.body as { name: string; owner: boolean; last_used_at: string | null; disabled_at: string | null }[];
    expect(listed.map((o) => [o.name, o.owner])).toEqual([
      ['ada', true],
      ['admin', true],
      ['dev', false],
      ['olive', false],
      ['vic', false],
    ]);
    expect(listed.find((o) => o.name === 'dev')).toMatchObject({ last_used_at: expect.any(String), disabled_at: null });
    expect(await vic.get('/api/v1/operators')).toMatchObject({
      status: 403,
      body: { error: 'only owners can list operators; ask an owner of this instance' },
    });
  });

  it('refuses every token of a disabled operator at once, and keeps their history', async () => {
    await mustCall(dev, 'write_document', { project: 'shop', path: 'by-dev.yaml', text: 'service: d\nport: 1\n' });
    const second = await dev.post('/api/v1/tokens', { name: 'laptop' });
    expect(second.status).toBe(201);
    const laptop = client(server.url, (second.body as { token: string }).token);
    expect((await laptop.get('/api/v1/projects')).status).toBe(200);

    expect((await vic.post('/api/v1/operators/dev/disable')).status).toBe(403);
    const disabled = await ada.post('/api/v1/operators/dev/disable');
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ name: 'dev', owner: false, disabled_at: expect.any(String) });

    for (const who of [dev, laptop]) {
      const answer = await who.get('/api/v1/projects');
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(BAD);
      expect((await who.post('/api/v1/assistant/tools/whoami', {})).status).toBe(401);
    }

    const again = await ada.post('/api/v1/operators/dev/disable');
    expect(again.body).toMatchObject({ disabled_at: (disabled.body as { disabled_at: string }).disabled_at });
    const revision = await mustCall(vic, 'read_document', { project: 'shop', path: 'by-dev.yaml' });
    expect(revision).toMatchObject({ author: 'dev' });
    const { entries } = await mustCall(ada, 'read_audit', { project: 'shop', operator: 'dev', tool: 'write_document' });
    expect(entries).toHaveLength(1);
    const { members } = await mustCall(ada, 'list_members', { project: 'shop' });
    expect(members).toContainEqual({ operator: 'dev', role: 'developer' });
  });

  it('audits a disable', async () => {
    await server.services.audit.flush();
    const rows = await server.services.db.select().from(auditEntries).where(eq(auditEntries.tool, 'operator:disable')).orderBy(auditEntries.id);
    // The viewer's attempt is on the record too, refused (queued, so compared as a set).
    expect(rows.map((r) => [r.operator, r.outcome, r.input]).sort()).toEqual([
      ['ada', 'ok', { name: 'dev' }],
      ['ada', 'ok', { name: 'dev' }],
      ['vic', 'refused', { name: 'dev' }],
    ]);
  });

  it('enables a disabled operator again, whose tokens then work again', async () => {
    expect((await vic.post('/api/v1/operators/dev/enable')).status).toBe(403);
    const enabled = await ada.post('/api/v1/operators/dev/enable');
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ name: 'dev', disabled_at: null });
    expect((await dev.get('/api/v1/projects')).status).toBe(200);
    await server.services.audit.flush();
    const rows = await server.services.db.select().from(auditEntries).where(eq(auditEntries.tool, 'operator:enable')).orderBy(auditEntries.id);
    // A refusal is queued, an effect commits with its entry: compare as sets.
    expect(rows.map((r) => [r.operator, r.outcome, r.input])).toEqual(
      expect.arrayContaining([
        ['vic', 'refused', { name: 'dev' }],
        ['ada', 'ok', { name: 'dev' }],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('never disables the last enabled owner, and answers 404 for nobody', async () => {
    expect(await ada.post('/api/v1/operators/nobody/disable')).toMatchObject({
      status: 404,
      body: { error: 'no such operator: nobody; GET /api/v1/operators lists them' },
    });
    expect((await admin.post('/api/v1/operators/ada/disable')).status).toBe(200);
    expect((await ada.get('/api/v1/projects')).status).toBe(401);
    expect(await admin.post('/api/v1/operators/admin/disable')).toMatchObject({
      status: 409,
      body: { error: 'admin is the last enabled owner; make another owner first' },
    });
    expect((await admin.get('/api/v1/projects')).status).toBe(200);
  });
});
