// The commands that work on the store itself, not through a server: a new
// owner token when every one is lost, a new instance key, backup and restore
// of the embedded store. The embedded store admits one process, so these
// refuse while its server runs; PostgreSQL admits them beside running servers.
import { randomUUID } from 'node:crypto';
import { access, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { mintToken } from '../access/tokens.js';
import { ConfigError, StartError, type Config } from '../config.js';
import { AuditLog } from '../domain/audit.js';
import { rotateInstanceKey } from '../domain/instance-key.js';
import { keyFile, SecretBox } from '../domain/secret-box.js';
import { dumpPglite, loadPglite } from '../store/backup.js';
import { openStore, pgliteFolder, type Store } from '../store/db.js';
import { keepPrivate } from '../store/private-files.js';
import { operators } from '../store/schema.js';

type StoreConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'secretKey'>;
type Print = (line: string) => void;

/** Refuses a data folder without an embedded store, rather than making one there. */
async function mustHoldStore(config: StoreConfig): Promise<void> {
  if (config.databaseUrl) return;
  await access(pgliteFolder(config.dataDir)).catch(() => {
    throw new StartError(`there is no store in ${config.dataDir}; name its folder with --data`);
  });
}

async function withStore<T>(config: StoreConfig, work: (store: Store) => Promise<T>): Promise<T> {
  await mustHoldStore(config);
  const store = await openStore(config);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `ops admin token`: mints a token for an owner (admin by default) and audits it; the token alone goes to stdout. */
export async function mintOwnerToken(config: StoreConfig, name: string, out: Print, err: Print): Promise<number> {
  const minted = await withStore(config, (store) =>
    store.db.transaction(async (tx) => {
      const [operator] = await tx.select().from(operators).where(eq(operators.name, name));
      if (!operator) {
        throw new StartError(
          (await tx.$count(operators)) === 0
            ? 'the store has no operators yet; start the server once (ops serve) and it creates the owner admin'
            : `no operator named ${name}; name an owner with --operator`,
        );
      }
      if (!operator.owner) throw new StartError(`${name} is not an owner; name an owner with --operator`);
      // One owner is always enabled (the last one cannot be disabled): name that one.
      if (operator.disabledAt) throw new StartError(`${name} is disabled; name an enabled owner with --operator`);
      const token = await mintToken(tx, { operatorId: operator.id, name: 'recovery', kind: 'operator' });
      await new AuditLog(tx, () => {}).write(tx, {
        operator: name,
        via: 'cli',
        tool: 'token:create',
        project: null,
        environment: null,
        outcome: 'ok',
        input: { id: token.id, name: 'recovery', kind: 'operator', by: 'ops admin token' },
      });
      return token;
    }),
  );
  out(minted.token);
  err(`ops admin token: a new token for the owner ${name}, shown once (audited as token:create via cli)`);
  return 0;
}

/**
 * `ops rotate-key`: re-seals every secret under a new key in one transaction.
 * The new key is AION_NEW_SECRET_KEY, or made here. A key kept in the data
 * folder is replaced there (written beside it first, moved over it after the
 * commit); one from AION_SECRET_KEY is printed for the operator to set.
 */
export async function rotateKey(config: StoreConfig, newKey: string | null, out: Print, err: Print): Promise<number> {
  await mustHoldStore(config);
  const current = await SecretBox.load(config);
  const fileKey = config.secretKey === null;
  const next = newKey ? SecretBox.fromBase64(newKey, 'AION_NEW_SECRET_KEY') : SecretBox.generate(fileKey ? keyFile(config.dataDir) : 'AION_SECRET_KEY');
  const pending = `${keyFile(config.dataDir)}.new`;
  if (fileKey) await writeFile(pending, next.exported(), { mode: 0o600 });
  try {
    const moved = await withStore(config, (store) => rotateInstanceKey(store.db, current, next));
    if (fileKey) await rename(pending, keyFile(config.dataDir));
    err(`ops rotate-key: ${moved} sealed values now under the new key`);
  } catch (error) {
    if (fileKey) await rm(pending, { force: true });
    throw error;
  }
  if (fileKey) err(`ops rotate-key: the new key is in ${keyFile(config.dataDir)}`);
  else if (newKey) err('ops rotate-key: restart every server with AION_SECRET_KEY set to the value of AION_NEW_SECRET_KEY');
  else {
    out(next.exported().trimEnd());
    err('ops rotate-key: the new key is above; restart every server with AION_SECRET_KEY set to it');
  }
  return 0;
}

function embeddedOnly(config: StoreConfig, command: string): void {
  if (config.databaseUrl) {
    throw new ConfigError(`${command} is for the embedded store; back PostgreSQL up with pg_dump and pg_restore instead`);
  }
}

/** `ops backup FILE`: the embedded store, consistent, while no server holds it. */
export async function backup(config: StoreConfig, file: string, err: Print): Promise<number> {
  embeddedOnly(config, 'ops backup');
  await mustHoldStore(config);
  const dump = await dumpPglite(pgliteFolder(config.dataDir));
  const partial = `${file}.${randomUUID()}.partial`;
  await writeFile(partial, dump, { mode: 0o600 });
  await rename(partial, file);
  err(`ops backup: the store in ${config.dataDir} is in ${file} (${dump.byteLength} bytes); keep the instance key with it`);
  return 0;
}

/** `ops restore FILE`: into a data folder that holds no store yet; the next start migrates it, as any older store. */
export async function restore(config: StoreConfig, file: string, err: Print): Promise<number> {
  embeddedOnly(config, 'ops restore');
  const folder = pgliteFolder(config.dataDir);
  const existing = await readdir(folder).catch(() => []);
  if (existing.length > 0) {
    throw new StartError(`${config.dataDir} already holds a store; restore into a new --data folder, or move this one aside first`);
  }
  const dump = await readFile(file).catch(() => {
    throw new StartError(`cannot read ${file}; name a file made by ops backup`);
  });
  try {
    await loadPglite(folder, dump);
  } catch {
    await rm(folder, { recursive: true, force: true });
    throw new StartError(`${file} is not a backup made by ops backup`);
  }
  // The store came in owner-only; a data folder made before it may not have been.
  keepPrivate(config.dataDir);
  err(
    `ops restore: the store from ${file} is in ${config.dataDir}; start it with the instance key it was made with ` +
      `(copy secret.key from the backed-up data folder, or set AION_SECRET_KEY)`,
  );
  return 0;
}
