// The instance key against the store: a known text sealed under it (the key
// check) shows at start whether this server's key opens the store's secrets,
// so a wrong AION_SECRET_KEY is refused then, not on the first secret read.
// Rotation re-seals every sealed value under a new key in one transaction.
import { and, eq } from 'drizzle-orm';
import { StartError } from '../config.js';
import type { Db } from '../store/db.js';
import { instanceFacts, parkedSecrets, secrets } from '../store/schema.js';
import type { SecretBox } from './secret-box.js';

const KEY_CHECK = 'key_check';
const KEY_CHECK_TEXT = 'aion key check';

function wrongKey(box: SecretBox): StartError {
  return new StartError(
    `the instance key from ${box.source} does not open this store's secrets; start with the key the store was made with (ops rotate-key changes it)`,
  );
}

/**
 * Refuses a key that does not open the store. A store without a check yet
 * (new, or made before checks existed) is tried against one of its secrets,
 * then given the check; of servers racing to write it, the first one wins and
 * the others are checked against it.
 */
export async function checkInstanceKey(db: Db, box: SecretBox): Promise<void> {
  const stored = await keyCheck(db);
  if (stored === null) {
    const [secret] = await db.select({ sealed: secrets.sealed }).from(secrets).limit(1);
    if (secret && !box.opens(secret.sealed)) throw wrongKey(box);
    await db.insert(instanceFacts).values({ name: KEY_CHECK, value: box.seal(KEY_CHECK_TEXT) }).onConflictDoNothing();
  }
  const check = stored ?? (await keyCheck(db));
  if (check === null || !box.opens(check)) throw wrongKey(box);
}

async function keyCheck(db: Db): Promise<string | null> {
  const [row] = await db.select({ value: instanceFacts.value }).from(instanceFacts).where(eq(instanceFacts.name, KEY_CHECK));
  return row?.value ?? null;
}

/** Re-seals every secret, parked value and the key check under `next`, all or nothing; answers how many values moved. */
export async function rotateInstanceKey(db: Db, current: SecretBox, next: SecretBox): Promise<number> {
  await checkInstanceKey(db, current);
  return db.transaction(async (tx) => {
    let moved = 0;
    for (const row of await tx.select().from(secrets).for('update')) {
      const sealed = next.seal(current.open(row.sealed));
      await tx
        .update(secrets)
        .set({ sealed })
        .where(and(eq(secrets.environmentId, row.environmentId), eq(secrets.name, row.name)));
      moved++;
    }
    for (const row of await tx.select().from(parkedSecrets).for('update')) {
      const sealed = next.seal(current.open(row.sealed));
      await tx
        .update(parkedSecrets)
        .set({ sealed })
        .where(and(eq(parkedSecrets.threadId, row.threadId), eq(parkedSecrets.number, row.number)));
      moved++;
    }
    await tx.update(instanceFacts).set({ value: next.seal(KEY_CHECK_TEXT) }).where(eq(instanceFacts.name, KEY_CHECK));
    return moved;
  });
}
