// Scratch folders of this test run (see global-setup.ts).
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/** A new folder inside this run's scratch folder. */
export function scratchFolder(prefix: string): Promise<string> {
  return mkdtemp(path.join(inject('runTmp'), `${prefix}-`));
}
