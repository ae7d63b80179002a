// The embedded store's client: each statement prepared once, the same answers
// as PGlite's own query(), errors that leave the session usable.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIZZLE_PARSERS, drizzleClient } from '../../src/store/pglite-client.js';

describe('the embedded store client', () => {
  let plain: PGlite;
  let client: PGlite;
  beforeAll(async () => {
    plain = await PGlite.create({ parsers: DRIZZLE_PARSERS });
    client = drizzleClient(plain);
    await plain.exec(`create table items (id serial primary key, name text unique not null, tags text[], meta jsonb, at timestamptz default now(), ok boolean)`);
  });
  afterAll(() => plain.close());

  const prepared = async () => (await plain.query<{ name: string }>(`select name from pg_prepared_statements order by name`)).rows.map((r) => r.name);

  it('answers as PGlite does, values of every kind, and prepares a statement once', async () => {
    const insert = `insert into items (name, tags, meta, ok) values ($1, $2, $3, $4) returning id, name, tags, meta, ok, at`;
    const values = ['a', ['x', 'y, z'], { deep: [1, 'two'] }, true];
    const ours = await client.query(insert, values, { rowMode: 'array' });
    const theirs = await plain.query(insert, ['b', ...values.slice(1)], { rowMode: 'array' });
    expect(ours.fields).toEqual(theirs.fields);
    expect((ours.rows[0] as unknown[]).slice(2, 5)).toEqual((theirs.rows[0] as unknown[]).slice(2, 5));
    expect((ours.rows[0] as unknown[])[2]).toEqual(['x', 'y, z']);
    // Times come back as PostgreSQL writes them, as drizzle asks.
    expect(typeof (ours.rows[0] as unknown[])[5]).toBe('string');
    const before = await prepared();
    expect(before.length).toBeGreaterThan(0);
    await client.query(insert, ['c', null, null, false]);
    expect(await prepared()).toEqual(before);
    const rows = await client.query<{ name: string }>(`select name from items where name = any($1) order by name`, [['a', 'c']]);
    expect(rows.rows).toEqual([{ name: 'a' }, { name: 'c' }]);
  });

  it('says PostgreSQL’s error with the statement, and goes on', async () => {
    const error = await client.query(`insert into items (name) values ($1)`, ['a']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', query: 'insert into items (name) values ($1)', params: ['a'] });
    const syntax = await client.query(`select from nowhere where`).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await client.query(`select count(*)::int as n from items`)).rows).toEqual([{ n: 3 }]);
  });

  it('runs drizzle transactions: all or nothing, and nothing of another caller in between', async () => {
    const db = drizzle(client);
    const failed = await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into items (name) values ('in-tx')`);
        await tx.execute(sql`insert into items (name) values ('a')`);
      })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((await client.query(`select 1 from items where name = 'in-tx'`)).rows).toEqual([]);
    // A statement outside waits for the transaction instead of running inside it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`insert into items (name) values ('held')`);
      await held;
      tx.rollback();
    });
    const outside = client.query(`insert into items (name) values ('outside')`);
    release();
    await expect(transaction).rejects.toThrow();
    await outside;
    const names = (await client.query<{ name: string }>(`select name from items where name in ('held', 'outside')`)).rows;
    expect(names).toEqual([{ name: 'outside' }]);
  });

  it('keeps at most 256 statements prepared, closing the least recently used', async () => {
    for (let i = 0; i < 300; i++) await client.query(`select ${i} as n`);
    await client.query(`select 'one more'`);
    const count = (await plain.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`)).rows[0]?.n ?? 0;
    expect(count).toBeLessThanOrEqual(257);
    expect(count).toBeGreaterThan(200);
    // An evicted statement is prepared again when it comes back.
    expect((await client.query(`select 0 as n`)).rows).toEqual([{ n: 0 }]);
  });
});
