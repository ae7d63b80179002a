// Once per test run: a migrated, empty PGlite data folder that tests copy
// (creating one from scratch costs seconds; copying it, milliseconds), and with
// AION_TEST_DATABASE_URL a migrated, empty PostgreSQL database that test
// databases are created from (CREATE DATABASE … TEMPLATE), so no test server
// migrates its own.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/db.js';
import { TMP_ROOT } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The migrated template database on AION_TEST_DATABASE_URL's server, or null without one. */
    postgresTemplate: string | null;
    /** This run's own scratch folder; runs side by side never share one. */
    runTmp: string;
  }
}

export default async function setup(project: TestProject) {
  await mkdir(TMP_ROOT, { recursive: true });
  const runTmp = await mkdtemp(path.join(TMP_ROOT, 'run-'));
  const templateDataDir = path.join(runTmp, 'template');
  await mkdir(templateDataDir, { recursive: true });
  const store = await openStore({ dataDir: templateDataDir, databaseUrl: null });
  await store.close();
  project.provide('pgliteTemplate', templateDataDir);
  project.provide('runTmp', runTmp);
  const postgresTemplate = await migratedPostgresTemplate();
  project.provide('postgresTemplate', postgresTemplate?.name ?? null);
  return async () => {
    await postgresTemplate?.drop();
    await rm(runTmp, { recursive: true, force: true });
  };
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
