// Once per test run: a migrated, empty PGlite data folder that tests copy
// (creating one from scratch costs seconds; copying it, milliseconds).
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/db.js';
import { TMP_ROOT } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  await rm(TMP_ROOT, { recursive: true, force: true });
  const templateDataDir = path.join(TMP_ROOT, 'template');
  await mkdir(templateDataDir, { recursive: true });
  const store = await openStore({ dataDir: templateDataDir, databaseUrl: null });
  await store.close();
  project.provide('pgliteTemplate', templateDataDir);
  return async () => {
    await rm(TMP_ROOT, { recursive: true, force: true });
  };
}
