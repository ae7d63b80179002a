// Opens the store: PGlite in the data folder (the default) or PostgreSQL when
// DATABASE_URL is set, both behind one Drizzle type. Migrations are applied
// under an advisory lock, so servers starting together on one PostgreSQL take
// turns instead of racing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzleClient, DRIZZLE_PARSERS } from './pglite-client.js';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { reconnectingDb } from './connection-loss.js';
import { dataFolderError, postgresStartError } from './errors.js';
import { lockFolder } from './folder-lock.js';
import { keepPrivate, makePrivateFolder } from './private-files.js';
import { PrivateNodeFS } from './private-nodefs.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction; it can stand wherever a Db is read or written. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The rows of one raw statement (a CTE drizzle cannot build), on either driver: both answer with `rows`. */
export async function queryRows<Row>(db: Db, statement: SQL): Promise<Row[]> {
  return ((await db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

export interface Store {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** How many entries of the data folder other users could read or enter when it opened (each is owner-only now); 0 on PostgreSQL. */
  readonly repairedModes: number;
  /** Runs `work` while no other server on the same database runs its own. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Hears every NOTIFY on `channel`, from this server's commits and from other
   * servers'. `connection` hears when notices stop reaching this server or
   * a try to hear them again fails (false), and when they reach it again (true).
   */
  listen(channel: string, listener: (payload: string) => void, connection?: (connected: boolean) => void): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Two levels below the package root, from src/store and from dist/store alike.
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/store/migrations', import.meta.url));

// A console's store is small: 16 MB of shared buffers (PostgreSQL's default is
// 128 MB) keeps the embedded server's memory near the §11 budget.
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=16MB'], parsers: DRIZZLE_PARSERS };

/** PGlite on `folder`, its files owner-only; `loadDataDir`: a dump to load into the empty folder. */
export function createPglite(folder: string, options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({ fs: new PrivateNodeFS(folder), ...PGLITE_OPTIONS, ...options });
}

/** Where the embedded store keeps its PostgreSQL files inside the data folder. */
export function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}

/** Opens and migrates the store; a store that cannot be used is a StartError or ConfigError with a sentence. */
export async function openStore(options: { dataDir: string; databaseUrl: string | null }): Promise<Store> {
  const store = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir);
  try {
    await store.exclusive(() => store.migrate());
  } catch (error) {
    await store.close();
    throw options.databaseUrl ? postgresStartError(error, options.databaseUrl) : error;
  }
  return store;
}

async function openPglite(dataDir: string): Promise<Store & { migrate(): Promise<void> }> {
  const folder = pgliteFolder(dataDir);
  await makePrivateFolder(folder).catch((error: unknown) => {
    throw dataFolderError(error, dataDir);
  });
  const unlock = await lockFolder(folder).catch((error: unknown) => {
    throw dataFolderError(error, dataDir);
  });
  let repairedModes: number;
  let client: PGlite;
  try {
    // Folders older than this check, or copied without their modes, are repaired on each start.
    repairedModes = await keepPrivate(dataDir).catch((error: unknown) => {
      throw dataFolderError(error, dataDir);
    });
    client = await createPglite(folder);
  } catch (error) {
    await unlock();
    throw error;
  }
  const queried = drizzleClient(client);
  const db = drizzlePglite(queried, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    repairedModes,
    // One process owns the embedded store, so there is nobody to take turns with.
    exclusive: (work) => work(),
    migrate: () => migratePglite(drizzlePglite(queried), { migrationsFolder: MIGRATIONS_FOLDER }),
    listen: async (channel, listener) => {
      await client.listen(channel, listener);
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

const MIGRATION_LOCK = 0x41_49_4f_4e; // "AION"

function openPostgres(url: string): Store & { migrate(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A dropped idle connection must not crash the server; the next query reconnects.
  pool.on('error', () => {});
  const db = reconnectingDb(pool);
  const listening = new PostgresListener(url);
  return {
    kind: 'postgres',
    db,
    repairedModes: 0,
    exclusive: async (work) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        return await work();
      } finally {
        await client.end();
      }
    },
    migrate: () => migratePostgres(drizzlePostgres(pool), { migrationsFolder: MIGRATIONS_FOLDER }),
    listen: (channel, listener, connection) => listening.listen(channel, listener, connection),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await listening.close();
      await pool.end();
    },
  };
}

/** The first pause before listening again after the connection dropped; it doubles up to the longest. */
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * LISTEN needs a connection of its own that stays open. When it drops, it
 * tells `connection` false, then tries again with backoff for as long as the
 * server runs (telling false again after each failed try); once listening
 * again, it tells `connection` true.
 */
class PostgresListener {
  private client: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, listener: (payload: string) => void, connection?: (connected: boolean) => void): Promise<void> {
    if (connection) this.connectionListeners.add(connection);
    const known = this.listeners.get(channel);
    if (known) {
      known.add(listener);
      return;
    }
    this.listeners.set(channel, new Set([listener]));
    // While a retry is pending, it will listen on this channel too.
    if (this.retry) return;
    if (this.client) await this.client.query(`listen ${quoted(channel)}`);
    else await this.open();
  }

  /** A new connection listening on every channel; kept only once it listens. */
  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`listen ${quoted(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    this.tell(false);
    this.schedule(FIRST_RETRY_MS);
  }

  private schedule(ms: number): void {
    this.retry = setTimeout(() => {
      this.open().then(
        () => {
          this.retry = null;
          if (this.closed) return this.client?.end().catch(() => {});
          this.tell(true);
        },
        () => {
          if (this.closed) return;
          this.tell(false);
          this.schedule(Math.min(ms * 2, LONGEST_RETRY_MS));
        },
      );
    }, ms);
    this.retry.unref();
  }

  private tell(connected: boolean): void {
    for (const listener of this.connectionListeners) listener(connected);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

function quoted(channel: string): string {
  return `"${channel.replaceAll('"', '')}"`;
}
