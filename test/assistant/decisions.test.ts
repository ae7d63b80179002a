// Deciding proposals through the real paths (DESIGN.md §10): the claim, the
// effect and the audit commit together (10), the permission is checked again
// when the proposal runs (1), a proposing caller's write never runs without an
// accept (2), accept-all is one transaction with a savepoint per proposal, and
// an agent's proposal leaves a running turn alone.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperator } from '../../src/access/operators.js';
import { auditEntries, turns } from '../../src/store/schema.js';
import type { Client } from '../helpers/http.js';
import { whileTurnRunsElsewhere } from '../helpers/running-turn.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { httpClient } from '../mcp/clients.js';

interface Thread {
  id: string;
  state: string;
  proposals: { id: string; status: string; tool: string; result: Record<string, unknown> | null }[];
}

let server: TestServer;
let ada: Client;
let olive: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive } = demoClients(server));
});
afterAll(() => server.stop());

async function say(who: Client, lines: string[]): Promise<Thread> {
  const thread = (await who.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as Thread;
  const answer = await who.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: lines.join('\n') });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

const environmentsOfShop = async () =>
  ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string }[] }).environments.map((e) => e.name);

/**
 * The store fails the commit of any transaction that made an environment of
 * this name — after the claim, the effect and the audit entry were written,
 * the way a crash before the commit would end it.
 */
async function failCommitsCreating(name: string): Promise<() => Promise<void>> {
  const { db } = server.services;
  await db.execute(sql.raw(`create or replace function test_power_cut() returns trigger language plpgsql as $$
    begin raise exception 'power cut'; end $$`));
  await db.execute(sql.raw(`create constraint trigger test_power_cut after insert on environments
    deferrable initially deferred for each row when (new.name = '${name}') execute function test_power_cut()`));
  return async () => {
    await db.execute(sql.raw('drop trigger test_power_cut on environments'));
  };
}

describe('a commit that fails after the claim and the effect', () => {
  it('leaves an accepted proposal only with its effect: here, neither', async () => {
    const thread = await say(ada, ['/tool create_environment {"name": "crash-env"}']);
    const id = thread.proposals[0]?.id ?? '';
    const restore = await failCommitsCreating('crash-env');
    try {
      await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${id}/accept`);
    } finally {
      await restore();
    }
    const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(await environmentsOfShop()).not.toContain('crash-env');
    // Had the claim committed on its own, the proposal would read accepted with nothing done.
    expect(after.proposals[0]?.status).toBe('failed');
    await server.services.audit.flush();
    const entries = await server.services.db.select().from(auditEntries).where(eq(auditEntries.proposalId, id));
    expect(entries.map((e) => e.outcome)).toEqual(['error']);
  });

  it('in accept-all, one transaction for the run, rolls every proposal of it back to waiting', async () => {
    const thread = await say(ada, [
      '/tool create_environment {"name": "before-crash"}',
      '/tool create_environment {"name": "crash-all"}',
      '/tool create_environment {"name": "after-crash"}',
    ]);
    const restore = await failCommitsCreating('crash-all');
    try {
      await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
    } finally {
      await restore();
    }
    const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(after.proposals.map((p) => p.status)).toEqual(['pending', 'pending', 'pending']);
    const envs = await environmentsOfShop();
    expect(envs.filter((e) => ['before-crash', 'crash-all', 'after-crash'].includes(e))).toEqual([]);
  });
});

describe('an operator demoted between proposing and accepting', () => {
  it('sees the proposal refused at accept, and nothing written', async () => {
    const thread = await say(olive, ['/tool write_document {"path": "demoted.yaml", "text": "port: 1\\n"}']);
    expect(thread.proposals.map((p) => p.status)).toEqual(['pending']);
    await mustCall(ada, 'set_member_role', { project: 'shop', operator: 'olive', role: 'viewer' });
    try {
      const answer = await olive.post(`/api/v1/assistant/threads/${thread.id}/proposals/${thread.proposals[0]?.id}/accept`);
      expect(answer.status).toBe(200);
      const decided = (answer.body as Thread).proposals[0];
      expect(decided?.status).toBe('failed');
      expect(decided?.result).toEqual({ error: 'you need document:write on shop; your role there is viewer' });
      const listed = await mustCall(ada, 'list_documents', { project: 'shop' });
      expect(JSON.stringify(listed)).not.toContain('demoted.yaml');
    } finally {
      await mustCall(ada, 'set_member_role', { project: 'shop', operator: 'olive', role: 'operator' });
    }
  });

  it('in accept-all, the proposals after the one that demoted her run with her new role', async () => {
    await mustCall(ada, 'set_member_role', { project: 'shop', operator: 'olive', role: 'admin' });
    try {
      const thread = await say(olive, [
        '/tool set_member_role {"operator": "olive", "role": "viewer"}',
        '/tool write_document {"path": "after-demotion.yaml", "text": "port: 1\\n"}',
      ]);
      const answer = await olive.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
      expect(answer.status).toBe(200);
      const decided = (answer.body as Thread).proposals;
      expect(decided.map((p) => p.status)).toEqual(['accepted', 'failed']);
      expect(decided[1]?.result).toEqual({ error: 'you need document:write on shop; your role there is viewer' });
    } finally {
      await mustCall(ada, 'set_member_role', { project: 'shop', operator: 'olive', role: 'operator' });
    }
  });
});

describe('a proposing caller', () => {
  it('never runs a write: the executor hands it to propose, and only a decision runs it', async () => {
    const operator = await findOperator(server.services.db, 'ada');
    const handed: string[] = [];
    const outcome = await server.services.executor.run(
      { operator, via: 'assistant', propose: (write) => (handed.push(write.tool.name), { proposed: true }) },
      'create_environment',
      { project: 'shop', name: 'never-run' },
    );
    expect(outcome).toMatchObject({ is_error: false, result: { proposed: true } });
    expect(handed).toEqual(['create_environment']);
    expect(await environmentsOfShop()).not.toContain('never-run');
  });
});

describe('an agent proposing while a turn runs', () => {
  it('keeps the turn’s claim: the thread stays busy until the turn answers', async () => {
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as Thread;
    const credential = ((await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string }).token;
    const agent = await httpClient(server.url, credential);
    try {
      const turn = ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/slow 400\n/say done' });
      const { db } = server.services;
      const claimed = async () => (await db.select({ id: turns.id }).from(turns).where(and(eq(turns.threadId, thread.id), isNull(turns.endedAt))))[0]?.id ?? null;
      await expect.poll(claimed, { timeout: 5000 }).not.toBeNull();
      await agent.callTool({ name: 'set_secret', arguments: { name: 'FROM_AGENT', value: 'v' } });
      expect(await claimed()).not.toBeNull();
      expect((await turn).status).toBe(200);
      expect(await claimed()).toBeNull();
    } finally {
      await agent.close();
    }
  });
});

describe('a proposal that is no longer executable', () => {
  it('is a 409, checked in the claim’s transaction: a newer answer, an environment gone; either way it is failed with why', async () => {
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'doomed' });
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'doomed' })).body as Thread;
    const first = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool set_secret {"name": "A", "value": "v"}' }))
      .body as Thread;
    const stale = first.proposals[0]?.id;
    // An agent's proposal, while a turn runs on another server, lands on a newer answer, which replaces the first.
    const credential = ((await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string }).token;
    const agent = await httpClient(server.url, credential);
    try {
      await whileTurnRunsElsewhere(server.services.db, thread.id, () => agent.callTool({ name: 'set_secret', arguments: { name: 'B', value: 'v' } }));
    } finally {
      await agent.close();
    }
    // The newer answer failed it as it landed.
    const replaced = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${stale}/accept`);
    expect(replaced.status).toBe(409);
    expect(replaced.body).toEqual({ error: 'this proposal was already failed' });

    const newest = ((await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread).proposals.at(-1)?.id;
    await server.services.db.execute(sql`delete from environments where name = 'doomed'`);
    const gone = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${newest}/accept`);
    expect(gone.status).toBe(409);
    expect(gone.body).toEqual({ error: 'this proposal is no longer executable: environment doomed is gone' });
    const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as Thread;
    expect(after.proposals.map((p) => [p.status, p.result])).toEqual([
      ['failed', { error: 'this proposal is no longer executable: a newer answer replaced it' }],
      ['failed', { error: 'this proposal is no longer executable: environment doomed is gone' }],
    ]);
    expect(after.state).toBe('idle');
  });
});
