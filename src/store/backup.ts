// A copy of the embedded store: PGlite's own dump of its data folder (a
// gzipped tar), taken and loaded under the folder's lock, so no server writes
// while it is made.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from './db.js';
import { lockFolder } from './folder-lock.js';

export async function dumpPglite(folder: string): Promise<Uint8Array> {
  const unlock = await lockFolder(folder);
  try {
    const client = await PGlite.create({ dataDir: folder, ...PGLITE_OPTIONS });
    try {
      return new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await client.close();
    }
  } finally {
    await unlock();
  }
}

export async function loadPglite(folder: string, dump: Uint8Array): Promise<void> {
  await mkdir(folder, { recursive: true });
  const unlock = await lockFolder(folder);
  try {
    const client = await PGlite.create({ dataDir: folder, loadDataDir: new Blob([dump]), ...PGLITE_OPTIONS });
    await client.close();
  } finally {
    await unlock();
  }
}
