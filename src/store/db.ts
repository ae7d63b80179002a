// Opens the store: PGlite in the data folder (the default) or PostgreSQL when
// DATABASE_URL is set, both behind one Drizzle type. Migrations are applied
// under an advisory lock, so servers starting together on one PostgreSQL take
// turns instead of racing.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dataFolderError, postgresStartError } from './errors.js';
import { lockFolder } from './folder-lock.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction; it can stand wherever a Db is read or written. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Store {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs `work` while no other server on the same database runs its own. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Hears every NOTIFY on `channel`, from this server's commits and from other servers'. */
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Two levels below the package root, from src/store and from dist/store alike.
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/store/migrations', import.meta.url));

// A console's store is small: 16 MB of shared buffers (PostgreSQL's default is
// 128 MB) keeps the embedded server's memory near the §11 budget.
export const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=16MB'] };

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
  await mkdir(folder, { recursive: true }).catch((error: unknown) => {
    throw dataFolderError(error, dataDir);
  });
  const unlock = await lockFolder(folder).catch((error: unknown) => {
    throw dataFolderError(error, dataDir);
  });
  const client = await PGlite.create({ dataDir: folder, ...PGLITE_OPTIONS }).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // One process owns the embedded store, so there is nobody to take turns with.
    exclusive: (work) => work(),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
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
  const db = drizzlePostgres(pool, { schema }) as unknown as Db;
  const listening = new PostgresListener(url);
  return {
    kind: 'postgres',
    db,
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
    listen: (channel, listener) => listening.listen(channel, listener),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await listening.close();
      await pool.end();
    },
  };
}

/**
 * LISTEN needs a connection of its own that stays open. When it drops, it
 * reconnects and tells every listener `*` (something may have changed while
 * it was away), so caches start afresh.
 */
class PostgresListener {
  private client: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, listener: (payload: string) => void): Promise<void> {
    const known = this.listeners.get(channel);
    if (known) {
      known.add(listener);
      return;
    }
    this.listeners.set(channel, new Set([listener]));
    const client = this.client ?? (await this.connect());
    await client.query(`listen "${channel.replaceAll('"', '')}"`);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    this.client = client;
    return client;
  }

  private reconnect(lost: pg.Client): void {
    if (this.closed || this.client !== lost) return;
    this.client = null;
    setTimeout(() => {
      if (this.closed) return;
      this.connect()
        .then(async (client) => {
          for (const channel of this.listeners.keys()) await client.query(`listen "${channel.replaceAll('"', '')}"`);
          for (const listeners of this.listeners.values()) for (const listener of listeners) listener('*');
        })
        .catch(() => this.reconnect(lost));
    }, 500).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
