// Servers for the bench on one fresh PostgreSQL database, with the demo data
// (ada's token read from the first server's output), dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generateToken } from '../../src/access/tokens.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';

export interface BenchCluster {
  servers: ServerProcess[];
  /** The fresh database the servers share (a superuser may connect to it). */
  databaseUrl: string;
  /** The servers' admin token. */
  adminToken: string;
  /** Ada's demo token: an owner of `shop`. */
  adaToken: string;
  /** Starts one more server on the same database (and stops it with the rest). */
  spawn(): Promise<ServerProcess>;
}

export async function withBenchCluster<T>(adminUrl: string, count: number, env: Record<string, string>, work: (cluster: BenchCluster) => Promise<T>): Promise<T> {
  const name = `aion_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const adminToken = generateToken('operator');
  const shared = { DATABASE_URL: url.toString(), AION_ADMIN_TOKEN: adminToken, AION_SECRET_KEY: randomBytes(32).toString('base64'), ...env };
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const spawn = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aion-bench-'));
    dirs.push(dir);
    const server = await spawnServer(['--demo', '--data', dir], shared);
    servers.push(server);
    return server;
  };
  try {
    for (let i = 0; i < count; i++) await spawn();
    const seeded = servers.flatMap((s) => s.stdout).find((line) => line.startsWith('demo token for ada: '));
    return await work({ servers: [...servers], databaseUrl: url.toString(), adminToken, adaToken: seeded?.slice('demo token for ada: '.length) ?? '', spawn });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
