// Actions outside the tool catalogue take one audited path: each is audited
// with the caller's via, in the transaction of its effect; refusals and
// failures are audited too.
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/store/schema.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients } from '../helpers/tools.js';

let server: TestServer;
let ada: Client;
let vic: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, vic } = demoClients(server));
});
afterAll(() => server.stop());

const CONSOLE = { headers: { 'x-aion-via': 'console' } };

/** The newest audit entry of an action. */
async function lastEntry(tool: string) {
  await server.services.audit.flush();
  const [entry] = await server.services.db.select().from(auditEntries).where(eq(auditEntries.tool, tool)).orderBy(desc(auditEntries.id)).limit(1);
  return entry;
}

describe('an action outside the catalogue', () => {
  it('is audited with the caller’s via, and what it made', async () => {
    expect((await ada.post('/api/v1/projects', { slug: 'audited' }, CONSOLE)).status).toBe(201);
    expect(await lastEntry('project:create')).toMatchObject({ operator: 'ada', via: 'console', project: 'audited', outcome: 'ok' });

    expect((await ada.post('/api/v1/operators', { name: 'audra' }, CONSOLE)).status).toBe(201);
    expect(await lastEntry('operator:create')).toMatchObject({ via: 'console', outcome: 'ok', input: { name: 'audra', owner: false } });

    const token = (await ada.post('/api/v1/tokens', { name: 'ci' }, CONSOLE)).body as { id: string; token: string };
    const created = await lastEntry('token:create');
    expect(created).toMatchObject({ via: 'console', outcome: 'ok', input: { id: token.id, name: 'ci', kind: 'operator' } });
    expect(JSON.stringify(created)).not.toContain(token.token);
    expect((await ada.delete(`/api/v1/tokens/${token.id}`, CONSOLE)).status).toBe(204);
    expect(await lastEntry('token:revoke')).toMatchObject({ via: 'console', outcome: 'ok', input: { id: token.id } });

    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const credential = (await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`, undefined, CONSOLE)).body as {
      token: string;
    };
    const session = await lastEntry('session:create');
    expect(session).toMatchObject({ via: 'console', outcome: 'ok', threadId: thread.id });
    expect(JSON.stringify(session)).not.toContain(credential.token);

    const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool set_secret {"name": "R", "value": "v"}' }))
      .body as { proposals: { id: string }[] };
    const proposal = answered.proposals[0]?.id;
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal}/reject`, undefined, CONSOLE)).status).toBe(200);
    expect(await lastEntry('proposal:reject')).toMatchObject({ via: 'console', outcome: 'ok', proposalId: proposal, project: 'shop' });

    expect((await ada.delete(`/api/v1/assistant/threads/${thread.id}`, CONSOLE)).status).toBe(204);
    expect(await lastEntry('thread:delete')).toMatchObject({ via: 'console', outcome: 'ok', threadId: thread.id });
  });

  it('is audited when refused', async () => {
    expect((await vic.post('/api/v1/projects', { slug: 'not-yours' })).status).toBe(403);
    expect(await lastEntry('project:create')).toMatchObject({
      operator: 'vic',
      via: 'rest',
      outcome: 'refused',
      error: 'only owners can create projects; ask an owner of this instance',
    });
    expect((await vic.post('/api/v1/operators', { name: 'mallory' })).status).toBe(403);
    expect(await lastEntry('operator:create')).toMatchObject({ operator: 'vic', outcome: 'refused' });
    expect((await vic.post('/api/v1/tokens', { name: 'svc', service: { project: 'shop', environment: 'staging' } })).status).toBe(403);
    expect(await lastEntry('token:create')).toMatchObject({ operator: 'vic', outcome: 'refused', input: { name: 'svc', kind: 'service' } });
  });

  it('is audited when it fails', async () => {
    expect((await ada.post('/api/v1/projects', { slug: 'shop' })).status).toBe(409);
    expect(await lastEntry('project:create')).toMatchObject({
      operator: 'ada',
      outcome: 'error',
      error: 'a project named shop already exists; pick another slug',
    });
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop' })).body as { id: string };
    const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool set_secret {"name": "S", "value": "v"}' }))
      .body as { proposals: { id: string }[] };
    const reject = `/api/v1/assistant/threads/${thread.id}/proposals/${answered.proposals[0]?.id}/reject`;
    expect((await ada.post(reject)).status).toBe(200);
    expect((await ada.post(reject)).status).toBe(409);
    expect(await lastEntry('proposal:reject')).toMatchObject({ outcome: 'error', error: 'this proposal was already rejected' });
  });

  it('commits its entry in the transaction of its effect: no entry, no effect', async () => {
    const { db } = server.services;
    await db.execute(sql.raw(`create function test_refuse_entry() returns trigger language plpgsql as $$
      begin raise exception 'the audit log is full'; end $$`));
    await db.execute(sql.raw(`create trigger test_refuse_entry before insert on audit_entries for each row
      when (new.tool = 'project:create' and new.outcome = 'ok') execute function test_refuse_entry()`));
    try {
      expect((await ada.post('/api/v1/projects', { slug: 'unaudited' })).status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger test_refuse_entry on audit_entries'));
    }
    expect((await ada.get('/api/v1/projects/unaudited')).status).toBe(404);
  });
});
