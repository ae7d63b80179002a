// A cluster that survives a stalled member (DESIGN §14, invariant 20; issue
// 30): two servers on one PostgreSQL with short limits. A is stopped
// (SIGSTOP) in the middle of a deploy to staging, holding its lock; B's deploy
// there answers within the lock limit plus 2 s, the database ends A's idle
// transaction after its limit, B deploys again at once, and A, woken, answers
// that its change was not made. A deadlock between B's deploy and another
// transaction is retried inside B: the deploy succeeds, nobody sees a 500.
// A request whose row stays locked answers 503 after the lock limit.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import type { ServerProcess } from '../helpers/process.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { callTool, type ToolAnswer } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';

const LOCK_MS = 2_000;
const IDLE_MS = 3_000;
const DEPLOY = { project: 'shop', environment: 'staging', path: 'app.yaml' };
const LOCK_WAIT_CUT = /^this change waited too long for another change to the same data .* and was not made/;
const IDLE_CUT = /^this server paused in the middle of this change for longer than the database allows, so the database ended it: the change was not made/;

describe.skipIf(!POSTGRES_URL)('two servers on PostgreSQL, one of them stalled', () => {
  let cluster: Cluster;
  let a: ServerProcess, b: ServerProcess;
  let onA: Client, onB: Client;
  /** The test's own connection to the cluster's database: the "other member" that holds locks. */
  let member: pg.Client;
  /** Reads pg_stat_activity outside the member's transaction, whose first read of it would be the snapshot every later read sees. */
  let observer: pg.Client;
  let memberPid = 0;
  let staging = '';

  beforeAll(async () => {
    cluster = await startCluster(2, ['--demo'], {
      AION_DB_LOCK_TIMEOUT: `${LOCK_MS}ms`,
      AION_DB_STATEMENT_TIMEOUT: '10s',
      AION_DB_IDLE_IN_TRANSACTION_TIMEOUT: `${IDLE_MS}ms`,
    });
    [a, b] = cluster.servers as [ServerProcess, ServerProcess];
    [onA, onB] = [client(a.url, cluster.adminToken), client(b.url, cluster.adminToken)];
    member = new pg.Client({ connectionString: cluster.databaseUrl });
    await member.connect();
    observer = new pg.Client({ connectionString: cluster.databaseUrl });
    await observer.connect();
    memberPid = (await member.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
    const found = await member.query<{ id: string }>(
      `select e.id from environments e join projects p on p.id = e.project_id where p.slug = 'shop' and e.name = 'staging'`,
    );
    staging = found.rows[0]?.id ?? '';
    // app.yaml is live in staging: a deploy updates its row.
    expect(await deploy(onB)).toMatchObject({ status: 200, is_error: false });
  });
  afterAll(async () => {
    a?.child.kill('SIGCONT');
    await member?.end();
    await observer?.end();
    await cluster?.stop();
  });

  /** A deploy of app.yaml to staging; a server that never answers fails it after 10 s. */
  function deploy(on: Client): Promise<ToolAnswer> {
    return Promise.race([
      callTool(on, 'deploy', DEPLOY),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the deploy did not answer within 10 s')), 10_000)),
    ]);
  }

  const deployments = async () => Number((await member.query(`select count(*) as n from deployments where environment_id = $1`, [staging])).rows[0].n);

  /** The backends of the database (other than the test's own) waiting for a lock, or idle inside a transaction. */
  async function backends(state: 'waiting' | 'idle in transaction'): Promise<number[]> {
    const others = `select pid from pg_stat_activity where datname = current_database() and pid not in (pg_backend_pid(), ${memberPid})`;
    const found = await observer.query<{ pid: number }>(
      state === 'waiting' ? `${others} and wait_event_type = 'Lock'` : `${others} and state = 'idle in transaction'`,
    );
    return found.rows.map((row) => row.pid);
  }

  it('answers B’s deploy within the lock limit plus 2 s while A stalls holding the lock; A’s transaction ends, A’s deploy was not made', async () => {
    const before = await deployments();
    // A's deploy waits for the environment's lock, held here; A stops; the lock passes to A's transaction, which A cannot end.
    await member.query('begin');
    await member.query(`select id from environments where id = $1 for no key update`, [staging]);
    const onStalled = callTool(onA, 'deploy', DEPLOY);
    // From here A waits at most the lock limit: stopped and given the lock at once.
    await waitFor(async () => (await backends('waiting')).length === 1);
    a.child.kill('SIGSTOP');
    await member.query('commit');
    await waitFor(async () => (await backends('idle in transaction')).length === 1, IDLE_MS - 500);

    const started = performance.now();
    const onB1 = await deploy(onB);
    const took = performance.now() - started;
    expect(took).toBeLessThan(LOCK_MS + 2_000);
    // Made (A's transaction ended first) or refused saying it was not made: never left waiting.
    if (onB1.is_error) expect(String(onB1.result.error)).toMatch(LOCK_WAIT_CUT);

    // The database ends A's idle transaction once its limit passes, and the lock with it.
    await waitFor(async () => (await backends('idle in transaction')).length === 0, IDLE_MS + 1_000);
    const startedAgain = performance.now();
    expect(await deploy(onB)).toMatchObject({ status: 200, is_error: false });
    expect(performance.now() - startedAgain).toBeLessThan(1_000);

    a.child.kill('SIGCONT');
    const stalled = await onStalled;
    expect(stalled.status).toBe(200);
    expect(stalled.is_error).toBe(true);
    expect(String(stalled.result.error)).toMatch(IDLE_CUT);
    // Only B's deploys landed.
    expect(await deployments()).toBe(before + (onB1.is_error ? 1 : 2));
    // A serves again.
    expect(await deploy(onA)).toMatchObject({ status: 200, is_error: false });
  });

  it('answers a message 503 with Retry-After when its thread stays locked past the lock limit, saying it was not sent', async () => {
    const opened = await onB.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' });
    const thread = (opened.body as { id: string }).id;
    await member.query('begin');
    await member.query(`select id from threads where id = $1 for update`, [thread]);
    try {
      const started = performance.now();
      const refused = await onB.post(`/api/v1/assistant/threads/${thread}/messages`, { text: '/say hello' });
      expect(performance.now() - started).toBeLessThan(LOCK_MS + 2_000);
      expect(refused.status).toBe(503);
      expect((refused.body as { error: string }).error).toMatch(LOCK_WAIT_CUT);
      expect(refused.headers.get('retry-after')).toBe('2');
    } finally {
      await member.query('rollback');
    }
    const viewed = (await onB.get(`/api/v1/assistant/threads/${thread}`)).body as { messages: unknown[] };
    expect(viewed.messages).toEqual([]);
    expect((await onB.post(`/api/v1/assistant/threads/${thread}/messages`, { text: '/say hello' })).status).toBe(200);
  });

  it('retries a deploy that deadlocked with another transaction: it succeeds, no 500', async () => {
    const before = await deployments();
    // The other transaction holds the live row B's deploy will update, then asks for the environment B's deploy holds.
    await member.query('begin');
    // This side never looks for the deadlock first, however late B's backend gets to it on a loaded machine.
    await member.query(`set local deadlock_timeout = '30s'`);
    await member.query(`select path from live_documents where environment_id = $1 and path = 'app.yaml' for update`, [staging]);
    const deployed = deploy(onB);
    await waitFor(async () => (await backends('waiting')).length === 1);
    // B's deploy waited first, so PostgreSQL finds the deadlock in its backend first (deadlock_timeout): B's is the one rolled back.
    await member.query(`select id from environments where id = $1 for no key update`, [staging]);
    await member.query('commit');

    expect(await deployed).toMatchObject({ status: 200, is_error: false });
    expect(await deployments()).toBe(before + 1);
    for (const server of [a, b]) expect(server.stderr.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
