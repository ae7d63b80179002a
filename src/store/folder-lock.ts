// The embedded store belongs to one process: two PGlite instances on one data
// folder corrupt it. A lock file holding the owner's pid keeps a second
// server out; one left by a process that is gone is taken over.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StartError } from '../config.js';

export async function lockFolder(folder: string): Promise<() => Promise<void>> {
  const file = path.join(folder, 'aion.lock');
  for (;;) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new StartError(`another process (pid ${owner}) is using the store in ${folder}; stop it first, or pick another --data`);
    }
    await rm(file, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
