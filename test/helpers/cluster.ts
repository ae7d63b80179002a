// Several `ops serve` processes on one bare PostgreSQL database, started
// together (their migrations and bootstrap must take turns).
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { generateToken } from '../../src/access/tokens.js';
import { spawnServer, type ServerProcess } from './process.js';
import { freshDatabase, freshDataDir, POSTGRES_URL, TEST_SECRET_KEY } from './store.js';

export interface Cluster {
  servers: ServerProcess[];
  adminToken: string;
  /** The database the servers share. */
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startCluster(count: number, args: string[] = [], env: Record<string, string> = {}): Promise<Cluster> {
  const adminToken = generateToken('operator');
  const database = await freshDatabase({ unmigrated: true });
  const dirs = await Promise.all(Array.from({ length: count }, () => freshDataDir()));
  const shared = { DATABASE_URL: database.url, AION_ADMIN_TOKEN: adminToken, AION_SECRET_KEY: TEST_SECRET_KEY, ...env };
  const servers = await Promise.all(dirs.map((dir) => spawnServer([...args, '--data', dir], shared)));
  return {
    servers,
    adminToken,
    databaseUrl: database.url,
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database.drop();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface DatabaseAdmin {
  /** The cluster's database name. */
  database: string;
  /** Runs a statement as the PostgreSQL superuser, outside the servers' database. */
  query(statement: string): Promise<unknown>;
  /** Lets connections into the database again, and closes. */
  end(): Promise<void>;
}

/** A superuser's connection beside a cluster, to refuse, cut and allow its database's connections. */
export async function databaseAdmin(cluster: Cluster): Promise<DatabaseAdmin> {
  const database = new URL(cluster.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: POSTGRES_URL ?? '' });
  await admin.connect();
  return {
    database,
    query: (statement) => admin.query(statement),
    end: async () => {
      await admin.query(`alter database ${database} allow_connections true`);
      await admin.end();
    },
  };
}
