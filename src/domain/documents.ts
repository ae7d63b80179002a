// A project's documents and their revisions: list, read, write (refused when
// based on a stale revision), delete (refused while live), diff, and check
// for an environment against the project's schema and the environment's
// secrets. Writes expect to run inside a transaction (the executor's).
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import {
  checkDocument,
  checkSchemaDocument,
  compileSchema,
  documentPathProblem,
  MAX_DOCUMENT_BYTES,
  SCHEMA_PATH,
  unifiedDiff,
  type Diagnostic,
} from '../documents/index.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { documents, environments, liveDocuments, operators, revisions } from '../store/schema.js';
import type { Environment } from './project-access.js';
import type { ProjectAccess } from './projects.js';
import { secretNames } from './secrets.js';
import type { DocumentListing, RevisionListing, RevisionView } from '../wire/document.js';

export type { DocumentListing, RevisionListing, RevisionView };

export interface SavedRevision {
  path: string;
  revision: number;
  sha256: string;
  size: number;
}

/** Refuses, with the rule it breaks, a path that cannot name a document. */
export function assertDocumentPath(path: string): void {
  const problem = documentPathProblem(path);
  if (problem) throw invalid(problem);
}

/** Every document of the project with its current revision and what is live where (from the directory's snapshot). */
export async function listDocuments(db: Db, project: ProjectAccess): Promise<DocumentListing[]> {
  const rows = await db
    .select({ path: documents.path, revision: documents.currentRevision, updatedAt: documents.updatedAt })
    .from(documents)
    .where(eq(documents.projectId, project.id))
    .orderBy(asc(documents.path));
  return rows.map((row) => {
    const live: Record<string, number> = {};
    for (const environment of project.environments) {
      const entry = environment.live.find((l) => l.path === row.path);
      if (entry) live[environment.name] = entry.revision;
    }
    return { path: row.path, revision: row.revision, updated_at: row.updatedAt.toISOString(), live };
  });
}

/** One revision of a document (default: the current one). */
export async function readRevision(db: Db, project: ProjectAccess, path: string, revision?: number): Promise<RevisionView> {
  const document = await findDocument(db, project, path);
  const number = revision ?? document.currentRevision;
  const [row] = await db
    .select({
      text: revisions.text,
      sha256: revisions.sha256,
      author: operators.name,
      message: revisions.message,
      createdAt: revisions.createdAt,
    })
    .from(revisions)
    .leftJoin(operators, eq(operators.id, revisions.authorId))
    .where(and(eq(revisions.documentId, document.id), eq(revisions.number, number)))
    .limit(1);
  if (!row) throw noSuchRevision(path, number, document.currentRevision);
  return {
    path,
    revision: number,
    current_revision: document.currentRevision,
    sha256: row.sha256,
    author: row.author,
    message: row.message,
    created_at: row.createdAt.toISOString(),
    text: row.text,
  };
}

/** A document's revisions, newest first: `limit` of them, older than `before` when given (paging). */
export async function listRevisions(
  db: Db,
  project: ProjectAccess,
  path: string,
  page: { limit: number; before?: number },
): Promise<{ path: string; current_revision: number; revisions: RevisionListing[] }> {
  const document = await findDocument(db, project, path);
  const rows = await db
    .select({
      revision: revisions.number,
      author: operators.name,
      createdAt: revisions.createdAt,
      size: sql<number>`octet_length(${revisions.text})`.mapWith(Number),
      sha256: revisions.sha256,
      message: revisions.message,
    })
    .from(revisions)
    .leftJoin(operators, eq(operators.id, revisions.authorId))
    .where(
      and(eq(revisions.documentId, document.id), page.before === undefined ? undefined : lt(revisions.number, page.before)),
    )
    .orderBy(desc(revisions.number))
    .limit(page.limit);
  return {
    path,
    current_revision: document.currentRevision,
    revisions: rows.map(({ createdAt, ...row }) => ({ ...row, created_at: createdAt.toISOString() })),
  };
}

/**
 * Saves a new revision. The document row is locked while the base is
 * compared, so of two writes on the same base exactly one lands and the
 * other is refused naming the revision it missed.
 */
export async function writeDocument(
  db: Db,
  project: ProjectAccess,
  operator: Operator,
  input: { path: string; text: string; base_revision?: number; message?: string },
): Promise<SavedRevision> {
  const { path, text } = input;
  assertDocumentPath(path);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_DOCUMENT_BYTES) {
    const count = (n: number) => n.toLocaleString('en-US');
    throw invalid(`the text is ${count(size)} bytes of UTF-8; a document holds at most 1 MiB (${count(MAX_DOCUMENT_BYTES)} bytes): split it into smaller documents`);
  }
  const [existing] = await db
    .select({ id: documents.id, currentRevision: documents.currentRevision })
    .from(documents)
    .where(and(eq(documents.projectId, project.id), eq(documents.path, path)))
    // Not FOR UPDATE: deploys hold FOR KEY SHARE on the row, which this does not wait for.
    .for('no key update');

  let documentId: string;
  let revision: number;
  if (existing) {
    if (input.base_revision !== existing.currentRevision) {
      const based = input.base_revision === undefined ? 'no base_revision' : `base_revision ${input.base_revision}`;
      throw conflict(
        `${path} is at r${existing.currentRevision} and the write named ${based}; read r${existing.currentRevision} and redo the change on it`,
      );
    }
    documentId = existing.id;
    revision = existing.currentRevision + 1;
    await db.update(documents).set({ currentRevision: revision, updatedAt: sql`now()` }).where(eq(documents.id, documentId));
  } else {
    if (input.base_revision !== undefined) {
      throw conflict(`${path} does not exist (it may have been deleted); leave base_revision out to create it`);
    }
    const [created] = await db
      .insert(documents)
      .values({ projectId: project.id, path, currentRevision: 1 })
      .onConflictDoNothing()
      .returning({ id: documents.id });
    if (!created) throw conflict(`${path} was created by someone else meanwhile; read it and redo the change on it`);
    documentId = created.id;
    revision = 1;
  }
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  await db.insert(revisions).values({
    documentId,
    number: revision,
    text,
    sha256,
    authorId: operator.id,
    message: input.message ?? null,
  });
  return { path, revision, sha256, size };
}

/** Deletes a document and its revisions, unless it is live in an environment. */
export async function deleteDocument(db: Db, project: ProjectAccess, path: string): Promise<void> {
  assertDocumentPath(path);
  const [document] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.projectId, project.id), eq(documents.path, path)))
    .for('update');
  if (!document) throw noSuchDocument(path);
  const live = await db
    .select({ environment: environments.name })
    .from(liveDocuments)
    .innerJoin(environments, eq(environments.id, liveDocuments.environmentId))
    .where(eq(liveDocuments.documentId, document.id))
    .orderBy(asc(environments.name));
  if (live.length > 0) {
    throw conflict(`${path} is live in ${live.map((l) => l.environment).join(' and ')}; a live document cannot be deleted`);
  }
  await db.delete(documents).where(eq(documents.id, document.id));
}

export interface DiffView {
  path: string;
  from: number | null;
  to: number;
  diff: string;
}

/**
 * A unified diff: `from` → `to` (default: the current revision and the one
 * before it), or what is live in `environment` → `to`.
 */
export async function diffDocument(
  db: Db,
  project: ProjectAccess,
  path: string,
  range: { from?: number; to?: number; environment: Environment | null },
): Promise<DiffView> {
  if (range.environment && range.from !== undefined) {
    throw invalid('name either from or environment, not both: with an environment, the diff starts at what is live there');
  }
  const to = await readRevision(db, project, path, range.to);
  let from: number | null;
  let fromLabel: string;
  if (range.environment) {
    const live = range.environment.live.find((l) => l.path === path);
    if (!live) throw notFound(`${path} is not live in ${range.environment.name}; there is nothing to compare with`);
    from = live.revision;
    fromLabel = `r${from} (live in ${range.environment.name})`;
  } else {
    from = range.from ?? (to.revision > 1 ? to.revision - 1 : null);
    fromLabel = from === null ? '(empty)' : `r${from}`;
  }
  const fromText = from === null ? '' : (await readRevision(db, project, path, from)).text;
  return { path, from, to: to.revision, diff: unifiedDiff(path, fromLabel, fromText, `r${to.revision}`, to.text) };
}

/** The diagnostics of `text` as if saved at `path`, for `environment`: the project's schema and the environment's secrets. */
export async function diagnosticsFor(
  db: Db,
  project: ProjectAccess,
  environment: Environment,
  path: string,
  text: string,
): Promise<Diagnostic[]> {
  if (path === SCHEMA_PATH) return checkSchemaDocument(text);
  const [schemaText, secrets] = await Promise.all([currentText(db, project, SCHEMA_PATH), secretNames(db, environment.id)]);
  if (schemaText === null) return checkDocument(text, { secrets });
  const compiled = compileSchema(schemaText.text);
  if ('schema' in compiled) return checkDocument(text, { schema: compiled.schema, secrets });
  const [first] = compiled.diagnostics;
  const where = first ? ` (${first.line}:${first.column} ${first.message})` : '';
  const broken: Diagnostic = {
    line: 1,
    column: 1,
    message: `the project schema ${SCHEMA_PATH} r${schemaText.revision} is broken${where}; fix it, then check again`,
  };
  return [broken, ...checkDocument(text, { secrets })];
}

/** The diagnostics of `text` at `path` for each environment of the project, by environment name. */
export async function diagnosticsByEnvironment(
  db: Db,
  project: ProjectAccess,
  path: string,
  text: string,
): Promise<Record<string, Diagnostic[]>> {
  const byEnvironment: Record<string, Diagnostic[]> = {};
  for (const environment of project.environments) {
    byEnvironment[environment.name] = await diagnosticsFor(db, project, environment, path, text);
  }
  return byEnvironment;
}

/** Diagnostics of a stored revision (default: current), or of `text`, for an environment. */
export async function checkForEnvironment(
  db: Db,
  project: ProjectAccess,
  environment: Environment,
  input: { path: string; revision?: number; text?: string },
): Promise<{ path: string; revision: number | null; diagnostics: Diagnostic[] }> {
  assertDocumentPath(input.path);
  if (input.text !== undefined && input.revision !== undefined) {
    throw invalid('give either text or revision, not both: text is checked as if saved, revision as stored');
  }
  if (input.text !== undefined) {
    return { path: input.path, revision: null, diagnostics: await diagnosticsFor(db, project, environment, input.path, input.text) };
  }
  const stored = await readRevision(db, project, input.path, input.revision);
  return {
    path: input.path,
    revision: stored.revision,
    diagnostics: await diagnosticsFor(db, project, environment, input.path, stored.text),
  };
}

/** The document row, or NotFound. */
async function findDocument(db: Db, project: ProjectAccess, path: string) {
  assertDocumentPath(path);
  const [document] = await db
    .select({ id: documents.id, currentRevision: documents.currentRevision })
    .from(documents)
    .where(and(eq(documents.projectId, project.id), eq(documents.path, path)))
    .limit(1);
  if (!document) throw noSuchDocument(path);
  return document;
}

export function noSuchRevision(path: string, revision: number, current: number) {
  return notFound(`${path} has no r${revision}; its revisions are r1 to r${current}`);
}

export function noSuchDocument(path: string) {
  return notFound(`no such document: ${path}; list_documents shows the paths`);
}

async function currentText(db: Db, project: ProjectAccess, path: string): Promise<{ text: string; revision: number } | null> {
  const [row] = await db
    .select({ text: revisions.text, revision: revisions.number })
    .from(documents)
    .innerJoin(revisions, and(eq(revisions.documentId, documents.id), eq(revisions.number, documents.currentRevision)))
    .where(and(eq(documents.projectId, project.id), eq(documents.path, path)))
    .limit(1);
  return row ?? null;
}
