// Opens the store: PGlite in the data folder (the default) or PostgreSQL when
// DATABASE_URL is set, both behind one Drizzle type. Migrations are applied
// under an advisory lock, so servers starting together on one PostgreSQL take
// turns instead of racing.
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzleClient, DRIZZLE_PARSERS } from './pglite-client.js';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DbLimits } from '../config.js';
import { dataFolderError, postgresStartError } from './errors.js';
import { MIGRATIONS_FOLDER } from './migrations-folder.js';
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

// A console's store is small: 16 MB of shared buffers (PostgreSQL's default is
// 128 MB) keeps the embedded server's memory near the §11 budget.
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=16MB'], parsers: DRIZZLE_PARSERS };

/**
 * V8 runs PGlite's PostgreSQL (wasm) on its baseline compiler and recompiles
 * a function with its optimizing one once the function has run about this
 * many bytes of code. At V8's default (1.8 MB on Node 20) a start alone made
 * hundreds of functions hot: their optimizing compiles cost ~0.9 s of CPU and
 * ~70 MB per start on two cores, for code that mostly never runs again. With
 * this budget only what keeps running under load is optimized.
 */
const WASM_TIERING_BUDGET = 1_800_000_000;

/** PGlite on `folder`, its files owner-only; `loadDataDir`: a dump to load into the empty folder. */
export function createPglite(folder: string, options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  // Read when a wasm module is instantiated; every PGlite of this process gets the same.
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  return PGlite.create({ fs: new PrivateNodeFS(folder), ...PGLITE_OPTIONS, ...options });
}

/** Where the embedded store keeps its PostgreSQL files inside the data folder. */
export function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}

/**
 * Opens and migrates the store; a store that cannot be used is a StartError or ConfigError with a sentence.
 * `dbLimits` bound every PostgreSQL connection's waits (none without them); PGlite has one connection, so nobody waits on another.
 */
export async function openStore(options: { dataDir: string; databaseUrl: string | null; dbLimits?: DbLimits }): Promise<Store> {
  const store = options.databaseUrl
    ? // PostgreSQL's client loads only for a server that uses it (a start on the embedded store does not).
      (await import('./postgres.js')).openPostgres(options.databaseUrl, options.dbLimits)
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
    try {
      repairedModes = keepPrivate(dataDir);
    } catch (error) {
      throw dataFolderError(error, dataDir);
    }
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
