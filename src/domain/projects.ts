// Projects and their environments, seen through the caller's role. A project
// the caller is no member of does not exist for them (404, never 403).
import { eq } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isUniqueViolation } from '../store/errors.js';
import { environments, memberships, projects } from '../store/schema.js';
import { lockEnvironment } from './environment-lock.js';
import type { ProjectDirectory } from './project-directory.js';
import type { Environment, ProjectAccess } from './project-access.js';
import type { Project } from '../wire/project.js';

export { ENVIRONMENT_NAME_PATTERN, PROJECT_SLUG_PATTERN, type Environment, type ProjectAccess } from './project-access.js';

/** A project as the routes answer it (src/wire/project.ts). */
export type ProjectView = Project;
export type EnvironmentView = Project['environments'][number];

export function describeEnvironment(environment: Environment): EnvironmentView {
  return {
    name: environment.name,
    protected: environment.protected,
    approvals_required: environment.approvalsRequired,
    requester_may_approve: environment.requesterMayApprove,
  };
}

export function findEnvironment(project: ProjectAccess, name: string): Environment {
  const environment = project.environments.find((e) => e.name === name);
  if (!environment) throw notFound(`no such environment: ${name} in ${project.slug}`);
  return environment;
}

export function describeProject(project: ProjectAccess): ProjectView {
  return {
    slug: project.slug,
    name: project.name,
    role: project.role,
    environments: project.environments.map(describeEnvironment),
  };
}

/** The operator's projects (every project for an owner), with environments. */
export async function listProjects(directory: ProjectDirectory, operator: Operator): Promise<ProjectView[]> {
  const views: ProjectView[] = [];
  for (const slug of await directory.visibleSlugs(operator)) {
    const project = await directory.find(operator, slug);
    if (project) views.push(describeProject(project));
  }
  return views;
}

/** Creates a project with `staging` and a protected `production`; owners only. */
/**
 * Creates a project with staging and a protected production, in `tx`; the
 * creator becomes its first admin. Who may is the caller's to check (owners).
 */
export async function createProject(
  tx: Db,
  touch: (topic: Topic) => void,
  operator: Operator,
  input: { slug: string; name?: string },
): Promise<void> {
  let row: { id: string } | undefined;
  try {
    [row] = await tx
      .insert(projects)
      .values({ slug: input.slug, name: input.name ?? input.slug })
      .returning({ id: projects.id });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`a project named ${input.slug} already exists; pick another slug`);
    throw error;
  }
  if (!row) throw new Error('project insert returned no row');
  await tx.insert(environments).values([
    { projectId: row.id, name: 'staging', protected: false },
    { projectId: row.id, name: 'production', protected: true },
  ]);
  // The creator becomes its first admin, so the project always has one.
  await tx.insert(memberships).values({ projectId: row.id, operatorId: operator.id, role: 'admin' });
  touch(`project:${row.id}`);
}

/** Adds an environment to a project. */
export async function createEnvironment(
  db: Db,
  project: ProjectAccess,
  input: { name: string; protected: boolean },
): Promise<Environment> {
  try {
    const [row] = await db
      .insert(environments)
      .values({ projectId: project.id, name: input.name, protected: input.protected })
      .returning({
        id: environments.id,
        name: environments.name,
        protected: environments.protected,
        approvalsRequired: environments.approvalsRequired,
        requesterMayApprove: environments.requesterMayApprove,
      });
    if (!row) throw new Error('environment insert returned no row');
    return { ...row, live: [] };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${project.slug} already has an environment named ${input.name}`);
    throw error;
  }
}

// The most people a change may need: in the wire module, so the console offers the same range.
export { MAX_APPROVALS } from '../wire/project.js';

export interface ProtectionChange {
  protected?: boolean;
  approvalsRequired?: number;
  requesterMayApprove?: boolean;
}

export interface Protection {
  protected: boolean;
  approvalsRequired: number;
  requesterMayApprove: boolean;
}

/**
 * What an environment's protection becomes: approvals only where it is
 * protected, and unprotecting it goes back to one (the requester's word) and
 * to no self-approval. Refuses a change that names nothing, or approvals on
 * an unprotected environment.
 */
export function protectionAfter(environment: string, was: Protection, change: ProtectionChange): Protection {
  if (change.protected === undefined && change.approvalsRequired === undefined && change.requesterMayApprove === undefined) {
    throw invalid('name protected, approvals_required, requester_may_approve or several: there is nothing to change');
  }
  const protect = change.protected ?? was.protected;
  const approvals = change.approvalsRequired ?? (protect ? was.approvalsRequired : 1);
  const self = change.requesterMayApprove ?? (protect ? was.requesterMayApprove : false);
  if (approvals > 1 && !protect) {
    throw invalid(`${environment} is not protected, and only a protected environment may require ${approvals} approvals; send protected: true as well`);
  }
  if (self && approvals < 2) {
    throw invalid(`${environment} requires no approvals (approvals_required is 1), so there is nothing a requester could approve; send approvals_required of 2 or more as well`);
  }
  return { protected: protect, approvalsRequired: approvals, requesterMayApprove: self };
}

/**
 * Protects or unprotects an environment, and sets how many approvals its
 * changes require (protectionAfter). What it was is reported, not refused.
 * Under the environment's lock, so it is ordered with the changes it governs.
 */
export async function setEnvironmentProtection(
  db: Db,
  environment: Environment,
  change: ProtectionChange,
): Promise<{ environment: string } & ProtectionView & { was: ProtectionView }> {
  const was = await lockEnvironment(db, environment);
  const now = protectionAfter(environment.name, was, change);
  await db.update(environments).set(now).where(eq(environments.id, environment.id));
  return { environment: environment.name, ...protectionView(now), was: protectionView(was) };
}

interface ProtectionView {
  protected: boolean;
  approvals_required: number;
  requester_may_approve: boolean;
}

function protectionView(protection: Protection): ProtectionView {
  return { protected: protection.protected, approvals_required: protection.approvalsRequired, requester_may_approve: protection.requesterMayApprove };
}
