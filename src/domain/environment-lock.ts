// The lock that orders everything which changes what an environment may put
// live: deploys, rollbacks, and deleting a secret a live document might use.
import { eq } from 'drizzle-orm';
import { notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { environments } from '../store/schema.js';
import type { Environment } from './project-access.js';

/**
 * Serialises deploys of one environment. NO KEY UPDATE, so writes that only
 * refer to the environment (secrets, tokens) do not wait for it.
 */
export async function lockEnvironment(db: Db, environment: Environment): Promise<void> {
  const [row] = await db
    .select({ id: environments.id })
    .from(environments)
    .where(eq(environments.id, environment.id))
    .for('no key update');
  if (!row) throw notFound(`no such environment: ${environment.name}`);
}
