// Once per test run: dist/ built again where src/ is newer (build.ts); a
// migrated, empty PGlite data folder that tests copy
// (creating one from scratch costs seconds; copying it, milliseconds), the
// same seeded with the demo (`ops serve --demo` once, not once per file), and with
// AION_TEST_DATABASE_URL a migrated, empty PostgreSQL database that test
// databases are created from (CREATE DATABASE … TEMPLATE), so no test server
// migrates its own.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateToken } from '../../src/access/tokens.js';
import { startServer } from '../../src/cli/serve.js';
import { readConfig } from '../../src/config.js';
import { openStore } from '../../src/store/db.js';
import { TMP_ROOT } from './paths.js';
import { buildIfStale } from './build.js';
import { ensurePrerequisites } from './prerequisites.js';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** A data folder whose store holds the demo, with its key file and demo-tokens.json (admin included). */
    pgliteDemoTemplate: string;
    /** The migrated template database on AION_TEST_DATABASE_URL's server, or null without one. */
    postgresTemplate: string | null;
    /** This run's own scratch folder; runs side by side never share one. */
    runTmp: string;
  }
}

export default async function setup(project: TestProject) {
  // Before anything starts `ops` from dist/: the build says what src/ says.
  await buildIfStale();
  await ensurePrerequisites();
  await mkdir(TMP_ROOT, { recursive: true });
  const runTmp = await mkdtemp(path.join(TMP_ROOT, 'run-'));
  const templateDataDir = path.join(runTmp, 'template');
  await mkdir(templateDataDir, { recursive: true });
  const store = await openStore({ dataDir: templateDataDir, databaseUrl: null });
  await store.close();
  project.provide('pgliteTemplate', templateDataDir);
  project.provide('pgliteDemoTemplate', await seededDemo(templateDataDir, path.join(runTmp, 'demo-template')));
  project.provide('runTmp', runTmp);
  const postgresTemplate = await migratedPostgresTemplate();
  project.provide('postgresTemplate', postgresTemplate?.name ?? null);
  return async () => {
    await postgresTemplate?.drop();
    await rm(runTmp, { recursive: true, force: true });
  };
}

async function seededDemo(templateDataDir: string, dataDir: string): Promise<string> {
  await run('cp', ['-R', templateDataDir, dataDir]);
  const config = readConfig(
    { host: '127.0.0.1', port: 0, data: dataDir, demo: true },
    { AION_LOG_LEVEL: 'warn', AION_ADMIN_TOKEN: generateToken('operator') },
  );
  const server = await startServer(config, () => {});
  await server.close();
  return dataDir;
}

async function migratedPostgresTemplate(): Promise<{ name: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.AION_TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `aion_template_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const store = await openStore({ dataDir: TMP_ROOT, databaseUrl: url.toString() });
  await store.close();
  return { name, drop: () => admin(`drop database if exists ${name} with (force)`) };
}
