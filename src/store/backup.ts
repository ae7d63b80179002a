// A copy of the embedded store: PGlite's own dump of its data folder (a
// gzipped tar), taken and loaded under the folder's lock, so no server writes
// while it is made. A loaded store is owner-only, as a created one.
import { createPglite } from './db.js';
import { lockFolder } from './folder-lock.js';
import { makePrivateFolder } from './private-files.js';

export async function dumpPglite(folder: string): Promise<Uint8Array> {
  const unlock = await lockFolder(folder);
  try {
    const client = await createPglite(folder);
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
  await makePrivateFolder(folder);
  const unlock = await lockFolder(folder);
  try {
    const client = await createPglite(folder, { loadDataDir: new Blob([dump]) });
    await client.close();
  } finally {
    await unlock();
  }
}
