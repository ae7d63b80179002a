// The gate in accept-all, which reads an environment's rule once per batch
// (under the lock its transaction then holds, DESIGN.md §11): the first
// proposal where two approvals are required becomes a change request and
// stops the run, the rest waiting (issue 29, DESIGN.md §14) — also after a
// proposal of the same batch that raised the rule, and when another server
// raised it while the batch waited on the lock.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { POSTGRES_URL, STORE_KINDS } from '../helpers/store.js';
import { demoClients, mustCall } from '../helpers/tools.js';

/** A thread in the project's environment whose answer proposes these tool calls. */
async function proposing(who: Client, project: string, environment: string, lines: string[]): Promise<ThreadResponse> {
  const thread = (await who.post('/api/v1/assistant/threads', { project, environment })).body as ThreadResponse;
  const answer = await who.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: lines.join('\n') });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ThreadResponse;
}

async function acceptAll(who: Client, thread: ThreadResponse): Promise<ThreadResponse> {
  const answer = await who.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ThreadResponse;
}

const secret = (name: string) => `/tool set_secret {"name": "${name}", "value": "v"}`;
const secretNames = async (who: Client, project: string, environment: string) =>
  ((await mustCall(who, 'list_secrets', { project, environment })).secrets as { name: string }[]).map((s) => s.name);

describe.each(STORE_KINDS)('accept-all where two approvals are required (%s)', (kind) => {
  let server: TestServer;
  let ada: Client;
  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true, env: { AION_ASSISTANT_RATE: '1000/1h' } });
    ({ ada } = demoClients(server));
  });
  afterAll(() => server?.stop());

  it('opens a change request for the first proposal, runs none, and leaves the rest waiting', async () => {
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'held', protected: true });
    await mustCall(ada, 'set_environment_protection', { project: 'shop', environment: 'held', approvals_required: 2 });
    const thread = await proposing(ada, 'shop', 'held', [secret('ONE'), secret('TWO'), secret('THREE')]);
    const after = await acceptAll(ada, thread);
    expect(after.proposals.map((p) => [p.status, p.requested, p.change_request?.status])).toEqual([
      ['accepted', true, 'pending'],
      ['pending', false, undefined],
      ['pending', false, undefined],
    ]);
    const requests = after.proposals.flatMap((p) => (p.change_request ? [p.change_request.id] : []));
    expect(await secretNames(ada, 'shop', 'held')).toEqual([]);
    const { entries } = await mustCall(ada, 'read_audit', { project: 'shop', tool: 'change_request:open' });
    const opened = (entries as { proposal: string; input: { change_request: string } }[]).filter((e) => after.proposals.some((p) => p.id === e.proposal));
    // Newest first, as the log reads.
    expect(opened.map((e) => e.input.change_request)).toEqual([...requests].reverse());
  });

  it('holds the proposals after one of the batch that raised the rule', async () => {
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'raised', protected: true });
    const thread = await proposing(ada, 'shop', 'raised', [
      secret('BEFORE'),
      '/tool set_environment_protection {"approvals_required": 2}',
      secret('AFTER_ONE'),
      secret('AFTER_TWO'),
    ]);
    const after = await acceptAll(ada, thread);
    expect(after.proposals.map((p) => [p.tool, p.status, p.change_request === null])).toEqual([
      ['set_secret', 'accepted', true],
      ['set_environment_protection', 'accepted', true],
      ['set_secret', 'accepted', false],
      ['set_secret', 'pending', true],
    ]);
    expect(after.proposals[2]?.requested).toBe(true);
    expect(await secretNames(ada, 'shop', 'raised')).toEqual(['BEFORE']);
    // The same where raising the rule is the batch's first read of it.
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'raised-first', protected: true });
    const first = await proposing(ada, 'shop', 'raised-first', ['/tool set_environment_protection {"approvals_required": 2}', secret('AFTER')]);
    expect((await acceptAll(ada, first)).proposals.map((p) => [p.status, p.change_request === null])).toEqual([
      ['accepted', true],
      ['accepted', false],
    ]);
    expect(await secretNames(ada, 'shop', 'raised-first')).toEqual([]);
    // And where it is lowered again in a batch, what follows runs.
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'lowered', protected: true });
    await mustCall(ada, 'set_environment_protection', { project: 'shop', environment: 'lowered', approvals_required: 2 });
    const lowering = await proposing(ada, 'shop', 'lowered', [secret('HELD'), secret('HELD_TOO')]);
    expect((await acceptAll(ada, lowering)).proposals.map((p) => [p.status, p.requested])).toEqual([
      ['accepted', true],
      ['pending', false],
    ]);
    // The rule itself is a change there, held too: nothing in that batch lowers it, so nothing runs.
    const again = await proposing(ada, 'shop', 'lowered', ['/tool set_environment_protection {"approvals_required": 1}', secret('STILL_HELD')]);
    expect((await acceptAll(ada, again)).proposals.map((p) => [p.status, p.requested])).toEqual([
      ['accepted', true],
      ['pending', false],
    ]);
    expect(await secretNames(ada, 'shop', 'lowered')).toEqual([]);
  });
});

describe.skipIf(!POSTGRES_URL)('accept-all while another server raises the rule', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(1, [], { AION_MODEL: 'fake' });
  });
  afterAll(() => cluster.stop());

  it('waits for it on the lock and holds every proposal, though its memory still says one approval', async () => {
    const [url] = cluster.servers.map((s) => s.url);
    const admin = client(url ?? '', cluster.adminToken);
    expect((await admin.post('/api/v1/projects', { slug: 'gate' })).status).toBe(201);
    // The server has the project in memory with production at one approval.
    expect(await mustCall(admin, 'list_environments', { project: 'gate' })).toMatchObject({
      environments: expect.arrayContaining([expect.objectContaining({ name: 'production', approvals_required: 1 })]),
    });
    const thread = await proposing(admin, 'gate', 'production', [secret('ONE'), secret('TWO'), secret('THREE')]);

    // Another server's change of the rule, not yet committed (and never announced: this server's memory stays as it was).
    const other = new pg.Client({ connectionString: cluster.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(
        "update environments set approvals_required = 2 where name = 'production' and project_id = (select id from projects where slug = 'gate')",
      );
      const accepting = acceptAll(admin, thread);
      // The batch reaches the environment's lock and waits there.
      await expect
        .poll(async () => (await other.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).rows[0].n as number, { timeout: 20_000 })
        .toBe(1);
      await other.query('commit');
      const after = await accepting;
      expect(after.proposals.map((p) => [p.status, p.requested, p.change_request?.status])).toEqual([
        ['accepted', true, 'pending'],
        ['pending', false, undefined],
        ['pending', false, undefined],
      ]);
    } finally {
      await other.end();
    }
    expect(await secretNames(admin, 'gate', 'production')).toEqual([]);
  });
});
