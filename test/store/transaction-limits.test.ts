// Every PostgreSQL connection bounds its waiting (DESIGN §14, invariant 20):
// a lock wait, a statement and an idle transaction past their limits end as
// a 503 that says the change was not made, never retried; a deadlock or a
// serialization failure runs again inside the store, and a 503 only once the
// tries run out. The limits are settings checked at start.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig, type DbLimits } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/db.js';
import { CONTENDED, IDLE_CUT, LOCK_WAIT_CUT, STATEMENT_CUT, storeUnreachable } from '../../src/store/unreachable.js';
import { freshDatabase, freshDataDir, POSTGRES_URL } from '../helpers/store.js';

const LIMITS: DbLimits = { lockTimeoutMs: 300, statementTimeoutMs: 1_000, idleInTransactionMs: 500 };

describe('the database limits as settings', () => {
  it('default to 5 s for a lock wait, 30 s for a statement, 10 s idle in a transaction', () => {
    expect(readConfig({}, {}).dbLimits).toEqual({ lockTimeoutMs: 5_000, statementTimeoutMs: 30_000, idleInTransactionMs: 10_000 });
    expect(readConfig({}, { AION_DB_LOCK_TIMEOUT: '250ms', AION_DB_STATEMENT_TIMEOUT: '2s', AION_DB_IDLE_IN_TRANSACTION_TIMEOUT: '1m' }).dbLimits).toEqual({
      lockTimeoutMs: 250,
      statementTimeoutMs: 2_000,
      idleInTransactionMs: 60_000,
    });
  });

  it('refuses a start with a limit that is not a duration, or a lock wait not shorter than a statement', () => {
    const read = (env: Record<string, string>) => () => readConfig({}, env);
    expect(read({ AION_DB_LOCK_TIMEOUT: 'soon' })).toThrow(new ConfigError('AION_DB_LOCK_TIMEOUT must be a duration like 10m, 30s or 500ms; got soon'));
    expect(read({ AION_DB_STATEMENT_TIMEOUT: '0' })).toThrow(new ConfigError('AION_DB_STATEMENT_TIMEOUT must be a duration like 10m, 30s or 500ms; got 0'));
    expect(read({ AION_DB_IDLE_IN_TRANSACTION_TIMEOUT: '-1s' })).toThrow(
      new ConfigError('AION_DB_IDLE_IN_TRANSACTION_TIMEOUT must be a duration like 10m, 30s or 500ms; got -1s'),
    );
    expect(read({ AION_DB_LOCK_TIMEOUT: '30s' })).toThrow(
      new ConfigError('AION_DB_LOCK_TIMEOUT (30000 ms) must be shorter than AION_DB_STATEMENT_TIMEOUT (30000 ms)'),
    );
  });
});

describe.skipIf(!POSTGRES_URL)('a store on PostgreSQL with limits', () => {
  let database: { url: string; drop(): Promise<void> };
  let store: Store;
  /** The test's own connection: the other member of the cluster, unbounded. */
  let other: pg.Client;

  beforeAll(async () => {
    database = await freshDatabase();
    // PostgreSQL looks for a deadlock after deadlock_timeout (1 s): sooner here, and sooner than the lock limit.
    const admin = new pg.Client({ connectionString: POSTGRES_URL ?? '' });
    await admin.connect();
    await admin.query(`alter database ${new URL(database.url).pathname.slice(1)} set deadlock_timeout = '50ms'`);
    await admin.end();
    store = await openStore({ dataDir: await freshDataDir(), databaseUrl: database.url, dbLimits: LIMITS });
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('create table probe (id int primary key, n int not null default 0)');
    await other.query('insert into probe (id) values (1), (2)');
  });
  afterAll(async () => {
    await other?.end();
    await store?.close();
    await database?.drop();
  });

  /** What `work` threw (failing the test after `ms`, so an unbounded wait fails rather than hangs), and how long it took. */
  async function failure(work: () => Promise<unknown>, ms = 4_000): Promise<{ error: unknown; took: number }> {
    const started = performance.now();
    const outcome = await Promise.race([
      work().then(
        () => ({ error: new Error('it succeeded') }),
        (error: unknown) => ({ error }),
      ),
      new Promise<{ error: unknown }>((resolve) => setTimeout(() => resolve({ error: new Error(`still waiting after ${ms} ms`) }), ms)),
    ]);
    return { ...outcome, took: performance.now() - started };
  }

  // A statement outside a transaction comes wrapped in Drizzle's error, as the HTTP layer meets it.
  const sentenceOf = (error: unknown) => storeUnreachable(error)?.message ?? String(error);

  it('gives up a lock another connection holds after the lock limit: a 503 saying it was not made', async () => {
    await other.query('begin');
    await other.query('select * from probe where id = 1 for update');
    try {
      let tries = 0;
      const { error, took } = await failure(() =>
        store.db.transaction(async (tx) => {
          tries++;
          await tx.execute(sql`update probe set n = n + 1 where id = 1`);
        }),
      );
      expect(sentenceOf(error)).toBe(LOCK_WAIT_CUT);
      expect(storeUnreachable(error)?.kind).toBe('unavailable');
      expect(took).toBeLessThan(LIMITS.lockTimeoutMs + 700);
      expect(tries).toBe(1);
    } finally {
      await other.query('rollback');
    }
  });

  it('cancels a statement past the statement limit', async () => {
    const { error, took } = await failure(() => store.db.execute(sql`select pg_sleep(3)`));
    expect(sentenceOf(error)).toBe(STATEMENT_CUT);
    expect(took).toBeLessThan(LIMITS.statementTimeoutMs + 700);
  });

  it('ends a transaction left idle past its limit, freeing its locks; its server hears the change was not made', async () => {
    let tries = 0;
    const stalled = failure(() =>
      store.db.transaction(async (tx) => {
        tries++;
        await tx.execute(sql`update probe set n = 100 where id = 2`);
        // The server stalls here (a GC pause, a frozen VM) holding the row.
        await new Promise((resolve) => setTimeout(resolve, LIMITS.idleInTransactionMs + 500));
        await tx.execute(sql`update probe set n = 101 where id = 2`);
      }),
    );
    // Another member waits for the row no longer than the idle limit.
    const started = performance.now();
    await other.query('begin');
    await other.query(`set local lock_timeout = '3s'`);
    await other.query('select * from probe where id = 2 for update');
    await other.query('rollback');
    expect(performance.now() - started).toBeLessThan(LIMITS.idleInTransactionMs + 1_000);

    const { error } = await stalled;
    expect(sentenceOf(error)).toBe(IDLE_CUT);
    expect(tries).toBe(1);
    expect((await other.query('select n from probe where id = 2')).rows).toEqual([{ n: 0 }]);
    // The pool dropped the ended connection: the next transaction works.
    await store.db.transaction((tx) => tx.execute(sql`select 1`));
  });

  it('runs a deadlocked transaction again: both sides commit, nobody sees the deadlock', async () => {
    await other.query('update probe set n = 0');
    const locked = { first: false, second: false };
    let runs = 0;
    const both = (mine: number, theirs: number, flag: 'first' | 'second', peer: 'first' | 'second') =>
      store.db.transaction(async (tx) => {
        runs++;
        await tx.execute(sql`update probe set n = n + 1 where id = ${mine}`);
        locked[flag] = true;
        // Each waits until the other holds its row, then asks for it: a deadlock on the first run.
        while (!locked[peer]) await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.execute(sql`update probe set n = n + 1 where id = ${theirs}`);
      });
    await Promise.all([both(1, 2, 'first', 'second'), both(2, 1, 'second', 'first')]);
    // At least one side ran again. On a loaded machine its retry can win the row back before the other side wakes
    // (the victim's lock is gone once it rolled back), and they deadlock once more: a fourth run, still unseen.
    expect(runs).toBeGreaterThanOrEqual(3);
    expect((await other.query('select id, n from probe order by id')).rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('answers 503 once serialization keeps failing, after a bounded number of tries', async () => {
    let runs = 0;
    const started = performance.now();
    const { error } = await failure(() =>
      store.db.transaction(async (tx) => {
        runs++;
        await tx.execute(sql.raw(`do $$ begin raise exception 'could not serialize' using errcode = '40001'; end $$`));
      }),
    );
    expect(sentenceOf(error)).toBe(CONTENDED);
    expect(runs).toBe(5);
    // Small pauses: a few hundred milliseconds in all at most.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
