// The hot, rarely changing state of each project — its members and their
// roles, its environments, what is live in each — held in memory and dropped whenever
// a committed write touches the project (here or on another server), so a
// read costs no query. This is what DESIGN.md §11's read targets rest on.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { notFound } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { environments, liveDocuments, memberships, operators, projects, type Role } from '../store/schema.js';
import { PROJECT_SLUG_PATTERN, type Environment, type Member, type ProjectAccess } from './project-access.js';

const SLUG = new RegExp(PROJECT_SLUG_PATTERN);

interface Snapshot {
  id: string;
  slug: string;
  name: string;
  roles: ReadonlyMap<string, Role>;
  /** By operator name (names never change), as list_members shows them. */
  members: readonly Member[];
  environments: Environment[];
}

export class ProjectDirectory {
  private readonly bySlug = new Map<string, Snapshot>();
  /** Each operator's project slugs; any project change may change them, so any drops them all. */
  private readonly slugsByOperator = new Map<string, string[]>();
  /** Bumped by every change; a load that saw an older one is not kept. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
  ) {
    changes.subscribe((topic) => this.forget(topic));
  }

  /**
   * The project as the operator may see it, or NotFound. Inside a transaction,
   * `within` reads what the memory lacks through it (never through another
   * connection, which would wait on it), and everything when `fresh`: that
   * transaction already changed the project.
   */
  async open(operator: Operator, slug: string, within?: { tx: Db; fresh: boolean }): Promise<ProjectAccess> {
    const snapshot = !SLUG.test(slug) ? null : within?.fresh ? await load(within.tx, slug) : await this.snapshot(slug, within?.tx);
    const project = snapshot && accessOf(snapshot, operator);
    if (!project) throw notFound(`no such project: ${slug === '' ? '""' : slug}`);
    return project;
  }

  async find(operator: Operator, slug: string): Promise<ProjectAccess | null> {
    // A name no project can have names none, and is never looked up.
    if (!SLUG.test(slug)) return null;
    const snapshot = await this.snapshot(slug);
    return snapshot && accessOf(snapshot, operator);
  }

  /** The slugs of the projects the operator may see (every project for an owner), sorted. */
  async visibleSlugs(operator: Operator): Promise<string[]> {
    const cached = this.slugsByOperator.get(operator.id);
    if (cached) return cached;
    const generation = this.generation;
    const rows = operator.owner
      ? await this.db.select({ slug: projects.slug }).from(projects).orderBy(asc(projects.slug))
      : await this.db
          .select({ slug: projects.slug })
          .from(projects)
          .innerJoin(memberships, and(eq(memberships.projectId, projects.id), eq(memberships.operatorId, operator.id)))
          .orderBy(asc(projects.slug));
    const slugs = rows.map((r) => r.slug);
    if (generation === this.generation && this.changes.hearing) this.slugsByOperator.set(operator.id, slugs);
    return slugs;
  }

  /** From memory, else loaded; what a transaction (`tx`) read is not kept, it may yet roll back. */
  private async snapshot(slug: string, tx?: Db): Promise<Snapshot | null> {
    const cached = this.bySlug.get(slug);
    if (cached) return cached;
    if (tx) return load(tx, slug);
    const generation = this.generation;
    const loaded = await load(this.db, slug);
    if (loaded && generation === this.generation && this.changes.hearing) this.bySlug.set(slug, loaded);
    return loaded;
  }

  private forget(topic: Topic): void {
    if (topic !== '*' && !topic.startsWith('project:')) return;
    this.generation++;
    this.slugsByOperator.clear();
    if (topic === '*') return this.bySlug.clear();
    const id = topic.slice('project:'.length);
    for (const [slug, snapshot] of this.bySlug) if (snapshot.id === id) this.bySlug.delete(slug);
  }
}

function accessOf(snapshot: Snapshot, operator: Operator): ProjectAccess | null {
  const role = operator.owner ? 'admin' : snapshot.roles.get(operator.id);
  if (!role) return null;
  return { id: snapshot.id, slug: snapshot.slug, name: snapshot.name, role, environments: snapshot.environments, members: snapshot.members };
}

async function load(db: Db, slug: string): Promise<Snapshot | null> {
  const [project] = await db
    .select({ id: projects.id, slug: projects.slug, name: projects.name })
    .from(projects)
    .where(eq(projects.slug, slug))
    .limit(1);
  if (!project) return null;
  const [members, envs] = await Promise.all([
    db
      .select({ operatorId: memberships.operatorId, operator: operators.name, role: memberships.role })
      .from(memberships)
      .innerJoin(operators, eq(operators.id, memberships.operatorId))
      .where(eq(memberships.projectId, project.id))
      .orderBy(asc(operators.name)),
    db
      .select({
        id: environments.id,
        name: environments.name,
        protected: environments.protected,
        approvalsRequired: environments.approvalsRequired,
        requesterMayApprove: environments.requesterMayApprove,
      })
      .from(environments)
      .where(eq(environments.projectId, project.id))
      .orderBy(asc(environments.createdAt), asc(environments.name)),
  ]);
  const live =
    envs.length === 0
      ? []
      : await db
          .select({
            environmentId: liveDocuments.environmentId,
            path: liveDocuments.path,
            revision: liveDocuments.revision,
            deployment: liveDocuments.deploymentNumber,
            deployedAt: liveDocuments.deployedAt,
          })
          .from(liveDocuments)
          .where(and(inArray(liveDocuments.environmentId, envs.map((e) => e.id))))
          .orderBy(asc(liveDocuments.path));
  return {
    ...project,
    roles: new Map(members.map((m) => [m.operatorId, m.role])),
    members: members.map(({ operator, role }) => ({ operator, role })),
    environments: envs.map((e) => ({
      ...e,
      live: live
        .filter((l) => l.environmentId === e.id)
        .map((l) => ({ path: l.path, revision: l.revision, deployment: l.deployment, deployed_at: l.deployedAt.toISOString() })),
    })),
  };
}
