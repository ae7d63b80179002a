// Memberships: one role per operator per project. A project always keeps at
// least one admin, so it can never be left with nobody to manage it.
import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '../errors.js';
import type { Db, Tx } from '../store/db.js';
import { memberships, type Role } from '../store/schema.js';
import type { Member } from '../domain/project-access.js';
import { findOperator } from './operators.js';


interface ProjectRef {
  id: string;
  slug: string;
}

/** Adds a member or changes a role; refuses to demote the last admin. */
export async function setMemberRole(
  db: Db,
  project: ProjectRef,
  operatorName: string,
  role: Role,
): Promise<Member & { added: boolean }> {
  const operator = await findOperator(db, operatorName);
  return db.transaction(async (tx) => {
    const current = await lockedRole(tx, project.id, operator.id);
    if (current === 'admin' && role !== 'admin') await ensureAnotherAdmin(tx, project, operatorName, 'change the role of');
    await tx
      .insert(memberships)
      .values({ projectId: project.id, operatorId: operator.id, role })
      .onConflictDoUpdate({ target: [memberships.projectId, memberships.operatorId], set: { role } });
    return { operator: operatorName, role, added: current === null };
  });
}

/** Removes a member; refuses to remove the last admin. */
export async function removeMember(db: Db, project: ProjectRef, operatorName: string): Promise<void> {
  const operator = await findOperator(db, operatorName);
  await db.transaction(async (tx) => {
    const current = await lockedRole(tx, project.id, operator.id);
    if (current === null) throw notFound(`${operatorName} is not a member of ${project.slug}`);
    if (current === 'admin') await ensureAnotherAdmin(tx, project, operatorName, 'remove');
    await tx
      .delete(memberships)
      .where(and(eq(memberships.projectId, project.id), eq(memberships.operatorId, operator.id)));
  });
}

/** Locks the project's admin rows and the member's own, so concurrent changes take turns. */
async function lockedRole(tx: Tx, projectId: string, operatorId: string): Promise<Role | null> {
  const rows = await tx
    .select({ operatorId: memberships.operatorId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.projectId, projectId))
    .for('update');
  return rows.find((r) => r.operatorId === operatorId)?.role ?? null;
}

async function ensureAnotherAdmin(tx: Tx, project: ProjectRef, operatorName: string, action: string): Promise<void> {
  const admins = await tx.$count(
    memberships,
    and(eq(memberships.projectId, project.id), eq(memberships.role, 'admin')),
  );
  if (admins <= 1) {
    throw conflict(`cannot ${action} ${operatorName}, the last admin of ${project.slug}; make another member admin first`);
  }
}
