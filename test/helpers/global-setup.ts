// Once per test run: a migrated, empty PGlite data folder that tests copy
// (creating one from scratch costs seconds; copying it, milliseconds).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/db.js';
import { TMP_ROOT } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
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
  return async () => {
    await rm(runTmp, { recursive: true, force: true });
  };
}
