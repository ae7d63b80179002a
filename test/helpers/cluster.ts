// Several `ops serve` processes on one bare PostgreSQL database, started
// together (their migrations and bootstrap must take turns).
import { rm } from 'node:fs/promises';
import { generateToken } from '../../src/access/tokens.js';
import { spawnServer, type ServerProcess } from './process.js';
import { freshDatabase, freshDataDir, TEST_SECRET_KEY } from './store.js';

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
