// Projects and their environments, seen through the caller's role. A project
// the caller is no member of does not exist for them (404, never 403).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { conflict, forbidden, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUniqueViolation } from '../store/errors.js';
import { environments, memberships, projects, type Role } from '../store/schema.js';

export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
export const ENVIRONMENT_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

export interface Environment {
  id: string;
  name: string;
  protected: boolean;
}

export interface ProjectAccess {
  id: string;
  slug: string;
  name: string;
  /** The caller's effective role: owners act as admin everywhere. */
  role: Role;
}

export interface ProjectView {
  slug: string;
  name: string;
  role: Role;
  environments: { name: string; protected: boolean }[];
}

/** The project as the operator may see it, or NotFound. */
export async function openProject(db: Db, operator: Operator, slug: string): Promise<ProjectAccess> {
  const [row] = await db
    .select({ id: projects.id, slug: projects.slug, name: projects.name, role: memberships.role })
    .from(projects)
    .leftJoin(memberships, and(eq(memberships.projectId, projects.id), eq(memberships.operatorId, operator.id)))
    .where(eq(projects.slug, slug))
    .limit(1);
  const role = operator.owner ? 'admin' : row?.role;
  if (!row || !role) throw notFound(`no such project: ${slug}`);
  return { id: row.id, slug: row.slug, name: row.name, role };
}

export async function listEnvironments(db: Db, projectId: string): Promise<Environment[]> {
  return db
    .select({ id: environments.id, name: environments.name, protected: environments.protected })
    .from(environments)
    .where(eq(environments.projectId, projectId))
    .orderBy(asc(environments.createdAt), asc(environments.name));
}

export async function findEnvironment(db: Db, project: ProjectAccess, name: string): Promise<Environment> {
  const [row] = await db
    .select({ id: environments.id, name: environments.name, protected: environments.protected })
    .from(environments)
    .where(and(eq(environments.projectId, project.id), eq(environments.name, name)))
    .limit(1);
  if (!row) throw notFound(`no such environment: ${name} in ${project.slug}`);
  return row;
}

/** The operator's projects (every project for an owner), with environments. */
export async function listProjects(db: Db, operator: Operator): Promise<ProjectView[]> {
  const rows = await db
    .select({ id: projects.id, slug: projects.slug, name: projects.name, role: memberships.role })
    .from(projects)
    .leftJoin(memberships, and(eq(memberships.projectId, projects.id), eq(memberships.operatorId, operator.id)))
    .orderBy(asc(projects.slug));
  const visible = rows.flatMap((r) => {
    const role = operator.owner ? 'admin' : r.role;
    return role ? [{ ...r, role }] : [];
  });
  if (visible.length === 0) return [];
  const envs = await db
    .select({ projectId: environments.projectId, name: environments.name, protected: environments.protected })
    .from(environments)
    .where(
      inArray(
        environments.projectId,
        visible.map((p) => p.id),
      ),
    )
    .orderBy(asc(environments.createdAt), asc(environments.name));
  return visible.map((p) => ({
    slug: p.slug,
    name: p.name,
    role: p.role,
    environments: envs.filter((e) => e.projectId === p.id).map((e) => ({ name: e.name, protected: e.protected })),
  }));
}

export async function describeProject(db: Db, project: ProjectAccess): Promise<ProjectView> {
  const envs = await listEnvironments(db, project.id);
  return {
    slug: project.slug,
    name: project.name,
    role: project.role,
    environments: envs.map((e) => ({ name: e.name, protected: e.protected })),
  };
}

/** Creates a project with `staging` and a protected `production`; owners only. */
export async function createProject(
  db: Db,
  operator: Operator,
  input: { slug: string; name?: string },
): Promise<ProjectView> {
  if (!operator.owner) throw forbidden('only owners can create projects; ask an owner of this instance');
  try {
    const project = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projects)
        .values({ slug: input.slug, name: input.name ?? input.slug })
        .returning({ id: projects.id });
      if (!row) throw new Error('project insert returned no row');
      await tx.insert(environments).values([
        { projectId: row.id, name: 'staging', protected: false },
        { projectId: row.id, name: 'production', protected: true },
      ]);
      // The creator becomes its first admin, so the project always has one.
      await tx.insert(memberships).values({ projectId: row.id, operatorId: operator.id, role: 'admin' });
      return row;
    });
    return describeProject(db, { id: project.id, slug: input.slug, name: input.name ?? input.slug, role: 'admin' });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`a project named ${input.slug} already exists; pick another slug`);
    throw error;
  }
}
