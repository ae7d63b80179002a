// Deployments: putting a checked revision of a document live in one
// environment, rolling back, the history, and what is live. Each deploy runs
// under a lock on its environment's row, which numbers the deployments of an
// environment without gaps or duplicates, across servers too. Deploys expect
// to run inside a transaction (the executor's).
import { and, asc, desc, eq, gte, lte, max } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { parseDocument, SCHEMA_PATH } from '../documents/index.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { deployments, documents, liveDocuments, operators, revisions, type Via } from '../store/schema.js';
import { assertDocumentPath, diagnosticsFor, noSuchDocument, noSuchRevision } from './documents.js';
import { lockEnvironment } from './environment-lock.js';
import { rollbackRevision } from '../wire/rollback-chain.js';
import type { Environment } from './project-access.js';
import type { ProjectAccess } from './projects.js';
import type { DeploymentView } from '../wire/deployment.js';

export type { DeploymentView };

export interface Target {
  project: ProjectAccess;
  environment: Environment;
  operator: Operator;
  via: Via;
}

/** Puts a revision (default: the current one) live, when checking it for the environment gives no diagnostics. */
export async function deploy(db: Db, target: Target, path: string, revision?: number): Promise<DeploymentView> {
  assertDeployable(path);
  await lockEnvironment(db, target.environment);
  return putLive(db, target, path, revision, false);
}

/** Deploys again the revision that was live before the current one, as a new deployment. */
/** Rolls `path` back; with `expected` (the revision a proposal showed), only when that is still the one it would put live. */
export async function rollback(db: Db, target: Target, path: string, expected?: number): Promise<DeploymentView> {
  assertDeployable(path);
  await lockEnvironment(db, target.environment);
  const revision = await rollbackTarget(db, target.environment, path);
  if (expected !== undefined && revision !== expected) {
    throw conflict(`a rollback of ${path} in ${target.environment.name} would now put r${revision} live, not the r${expected} it showed; ask again to roll back to r${revision}`);
  }
  return putLive(db, target, path, revision, true);
}

/** The revision a rollback of `path` would put live again; a conflict when there is none. */
export async function rollbackTarget(db: Db, environment: Environment, path: string): Promise<number> {
  const where = environment.name;
  const [live] = await db
    .select({ revision: liveDocuments.revision, deployment: liveDocuments.deploymentNumber, since: documents.createdAt })
    .from(liveDocuments)
    .innerJoin(documents, eq(documents.id, liveDocuments.documentId))
    .where(and(eq(liveDocuments.environmentId, environment.id), eq(liveDocuments.path, path)));
  if (!live) throw conflict(`${path} is not live in ${where}; there is nothing to roll back`);
  const history = await db
    .select({ revision: deployments.revision, rollback: deployments.rollback })
    .from(deployments)
    .where(
      and(
        eq(deployments.environmentId, environment.id),
        eq(deployments.path, path),
        lte(deployments.number, live.deployment),
        // Deployments older than the document belong to a deleted one that had the same path.
        gte(deployments.createdAt, live.since),
      ),
    )
    .orderBy(asc(deployments.number));
  const previous = rollbackRevision(history);
  if (previous === null && history.every((d) => d.revision === live.revision)) {
    throw conflict(`${path} has been live in ${where} only at r${live.revision}; there is no earlier revision to roll back to`);
  }
  if (previous === null) {
    throw conflict(`${path} r${live.revision} is live in ${where}, and every revision live before it was rolled back already; deploy the one you want instead`);
  }
  return previous;
}

/** What is live at `path` in the environment, as the store holds it now; null when nothing is. */
export async function liveAt(db: Db, environment: Environment, path: string): Promise<{ revision: number; deployment: number } | null> {
  const [live] = await db
    .select({ revision: liveDocuments.revision, deployment: liveDocuments.deploymentNumber })
    .from(liveDocuments)
    .where(and(eq(liveDocuments.environmentId, environment.id), eq(liveDocuments.path, path)));
  return live ?? null;
}

/** An environment's deployments, newest first. */
export async function listDeployments(db: Db, environment: Environment, limit: number): Promise<DeploymentView[]> {
  const rows = await db
    .select({
      deployment: deployments.number,
      path: deployments.path,
      revision: deployments.revision,
      operator: operators.name,
      via: deployments.via,
      rollback: deployments.rollback,
      createdAt: deployments.createdAt,
    })
    .from(deployments)
    .leftJoin(operators, eq(operators.id, deployments.operatorId))
    .where(eq(deployments.environmentId, environment.id))
    .orderBy(desc(deployments.number))
    .limit(limit);
  return rows.map(({ createdAt, ...row }) => ({ ...row, deployed_at: createdAt.toISOString() }));
}

export interface LiveConfig {
  path: string;
  revision: number;
  deployment: number;
  deployed_at: string;
  /** The document as services get it, secret references left as written. */
  config: unknown;
}

/** What is live in an environment (or at one path of it), secret references unresolved. */
export async function liveConfig(db: Db, environment: Environment, path?: string): Promise<LiveConfig[]> {
  if (path !== undefined) assertDocumentPath(path);
  const rows = await db
    .select({
      path: liveDocuments.path,
      revision: liveDocuments.revision,
      deployment: liveDocuments.deploymentNumber,
      deployedAt: liveDocuments.deployedAt,
      text: revisions.text,
    })
    .from(liveDocuments)
    .innerJoin(revisions, and(eq(revisions.documentId, liveDocuments.documentId), eq(revisions.number, liveDocuments.revision)))
    .where(and(eq(liveDocuments.environmentId, environment.id), path === undefined ? undefined : eq(liveDocuments.path, path)))
    .orderBy(asc(liveDocuments.path));
  if (path !== undefined && rows.length === 0) throw notFound(`${path} is not live in ${environment.name}`);
  return rows.map(({ deployedAt, text, ...row }) => ({ ...row, deployed_at: deployedAt.toISOString(), config: parseDocument(text) }));
}

export function assertDeployable(path: string): void {
  assertDocumentPath(path);
  if (path === SCHEMA_PATH) {
    throw invalid(`${SCHEMA_PATH} is the project's schema: checks use its current revision, so it is never deployed`);
  }
}

/** Checks and records one deployment; the environment is locked. */
async function putLive(db: Db, target: Target, path: string, revision: number | undefined, isRollback: boolean): Promise<DeploymentView> {
  const { project, environment } = target;
  const [document] = await db
    .select({ id: documents.id, currentRevision: documents.currentRevision })
    .from(documents)
    .where(and(eq(documents.projectId, project.id), eq(documents.path, path)))
    // KEY SHARE holds off a delete of the document until this commits, and lets writes through.
    .for('key share');
  if (!document) throw noSuchDocument(path);
  const number = revision ?? document.currentRevision;
  const [stored] = await db
    .select({ text: revisions.text })
    .from(revisions)
    .where(and(eq(revisions.documentId, document.id), eq(revisions.number, number)));
  if (!stored) throw noSuchRevision(path, number, document.currentRevision);

  const diagnostics = await diagnosticsFor(db, project, environment, path, stored.text);
  const [first] = diagnostics;
  if (first) {
    const count = diagnostics.length === 1 ? '1 diagnostic' : `${diagnostics.length} diagnostics`;
    throw invalid(
      `${path} r${number} has ${count} for ${environment.name}, so it was not deployed; ` +
        `the first is ${first.line}:${first.column} ${first.message}`,
    );
  }

  const [last] = await db
    .select({ number: max(deployments.number) })
    .from(deployments)
    .where(eq(deployments.environmentId, environment.id));
  const deployment = (last?.number ?? 0) + 1;
  // The store's clock, like the documents' created_at that rollback compares with.
  const [recorded] = await db
    .insert(deployments)
    .values({
      environmentId: environment.id,
      number: deployment,
      path,
      revision: number,
      operatorId: target.operator.id,
      via: target.via,
      rollback: isRollback,
    })
    .returning({ at: deployments.createdAt });
  if (!recorded) throw new Error('deployment insert returned no row');
  const live = { documentId: document.id, revision: number, deploymentNumber: deployment, deployedAt: recorded.at };
  await db
    .insert(liveDocuments)
    .values({ environmentId: environment.id, path, ...live })
    .onConflictDoUpdate({ target: [liveDocuments.environmentId, liveDocuments.path], set: live });
  return {
    deployment,
    path,
    revision: number,
    operator: target.operator.name,
    via: target.via,
    rollback: isRollback,
    deployed_at: recorded.at.toISOString(),
  };
}
