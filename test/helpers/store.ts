// Stores for tests: a copy of the migrated PGlite template, or a fresh
// database on the machine's PostgreSQL when AION_TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { cp, rm } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore, pgliteFolder, type Store } from '../../src/store/db.js';
import { scratchFolder } from './scratch.js';

export type StoreKind = 'pglite' | 'postgres';

const ADMIN_URL = process.env.AION_TEST_DATABASE_URL ?? null;

/** The kinds of store every store test runs on: PGlite always, PostgreSQL when configured. */
export const STORE_KINDS: StoreKind[] = ADMIN_URL ? ['pglite', 'postgres'] : ['pglite'];
export const POSTGRES_URL = ADMIN_URL;
/** The instance key test servers on PostgreSQL share (the embedded store makes its own). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** A new data folder holding a migrated, empty embedded store. */
export async function freshDataDir(): Promise<string> {
  const dataDir = await scratchFolder('data');
  await cp(pgliteFolder(inject('pgliteTemplate')), pgliteFolder(dataDir), { recursive: true });
  return dataDir;
}

/** A new, empty PostgreSQL database; `drop` removes it. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!ADMIN_URL) throw new Error('AION_TEST_DATABASE_URL is not set');
  const name = `aion_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestStore {
  store: Store;
  dataDir: string;
  databaseUrl: string | null;
  cleanup(): Promise<void>;
}

/** Where a test server keeps its data: a data folder, and a database for PostgreSQL. */
export async function freshLocation(kind: StoreKind): Promise<{ dataDir: string; databaseUrl: string | null; cleanup(): Promise<void> }> {
  const dataDir = await freshDataDir();
  if (kind === 'pglite') {
    return { dataDir, databaseUrl: null, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const database = await freshDatabase();
  return {
    dataDir,
    databaseUrl: database.url,
    cleanup: async () => {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  const location = await freshLocation(kind);
  const store = await openStore(location);
  return {
    store,
    ...location,
    cleanup: async () => {
      await store.close();
      await location.cleanup();
    },
  };
}
