// The data folder holds the store, its write-ahead log, the instance key and
// tokens: nobody but its owner may read or enter any of it. Folders are 0700
// and files 0600 (group and other bits cleared), made so and kept so.
import { chmodSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';

/** The permission bits of the group and of other users. */
export const NOT_OWNER = 0o077;

/** Makes `folder` and any missing parent, each 0700. */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
}

/**
 * Clears the group and other bits of `folder` and of every folder and file
 * in it (symbolic links are left alone: chmod would follow them out of the
 * folder); answers how many entries had any. Synchronous: it runs before the
 * store opens, when nothing else waits, and a thousand awaited lstat calls
 * (a store's files) cost a start ~150 ms of waiting on the thread pool.
 */
export function keepPrivate(folder: string): number {
  return tighten(folder, statSync(folder));
}

function tighten(entry: string, stats: Stats): number {
  let repaired = 0;
  if (stats.mode & NOT_OWNER) {
    try {
      chmodSync(entry, stats.mode & 0o7777 & ~NOT_OWNER);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
      throw new ConfigError(`${entry} belongs to another user, so it cannot be made owner-only; give the data folder to the user that runs Aion (chown -R)`);
    }
    repaired++;
  }
  if (!stats.isDirectory()) return repaired;
  for (const name of readdirSync(entry)) {
    const child = path.join(entry, name);
    const childStats = lstatSync(child);
    if (childStats.isDirectory() || childStats.isFile()) repaired += tighten(child, childStats);
  }
  return repaired;
}
