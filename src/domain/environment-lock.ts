// The lock that orders everything which changes what an environment may put
// live: deploys, rollbacks, deleting a secret a live document might use, and
// every change where two approvals may be required (the executor's gate).
import { eq } from 'drizzle-orm';
import { notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { environments } from '../store/schema.js';
import type { Environment } from './project-access.js';
import type { Protection } from './projects.js';

/**
 * Serialises deploys of one environment, and answers how it is protected as
 * the store holds it under that lock (what gates a change to it). NO KEY
 * UPDATE, so writes that only refer to the environment (secrets, tokens) do
 * not wait for it.
 */
export async function lockEnvironment(db: Db, environment: Environment): Promise<Protection> {
  const [row] = await db
    .select({ protected: environments.protected, approvalsRequired: environments.approvalsRequired, requesterMayApprove: environments.requesterMayApprove })
    .from(environments)
    .where(eq(environments.id, environment.id))
    .for('no key update');
  if (!row) throw notFound(`no such environment: ${environment.name}`);
  return row;
}
