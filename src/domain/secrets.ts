// Secrets of one environment: values sealed under the instance key, a version
// bumped by every set. Values leave only through `openSecrets`, which only the
// live endpoint calls; everything else sees names, versions, who and when.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { parseDocument, secretReferences } from '../documents/index.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { liveDocuments, operators, revisions, secrets } from '../store/schema.js';
import { lockEnvironment } from './environment-lock.js';
import type { Environment } from './project-access.js';
import type { SecretBox } from './secret-box.js';
import type { SecretInfo } from '../wire/secret.js';

export type { SecretInfo };

export const SECRET_NAME_PATTERN = '^[A-Z_][A-Z0-9_]{0,127}$';
const MAX_SECRET_BYTES = 64 * 1024;

export async function listSecrets(db: Db, environmentId: string): Promise<SecretInfo[]> {
  const rows = await db
    .select({
      name: secrets.name,
      version: secrets.version,
      updatedBy: operators.name,
      updatedAt: secrets.updatedAt,
    })
    .from(secrets)
    .leftJoin(operators, eq(operators.id, secrets.updatedBy))
    .where(eq(secrets.environmentId, environmentId))
    .orderBy(asc(secrets.name));
  return rows.map((r) => ({ name: r.name, version: r.version, updated_by: r.updatedBy, updated_at: r.updatedAt.toISOString() }));
}

/** The names an environment holds: what checking a document for it needs. */
export async function secretNames(db: Db, environmentId: string): Promise<Set<string>> {
  const rows = await db.select({ name: secrets.name }).from(secrets).where(eq(secrets.environmentId, environmentId));
  return new Set(rows.map((r) => r.name));
}

/** Sets a value (a new secret at version 1, else the next version). */
export async function setSecret(
  db: Db,
  box: SecretBox,
  input: { environment: Environment; name: string; value: string; operator: Operator },
): Promise<SecretInfo> {
  if (Buffer.byteLength(input.value, 'utf8') > MAX_SECRET_BYTES) {
    throw invalid(`the value of ${input.name} is over 64 KiB; store a smaller value`);
  }
  const sealed = box.seal(input.value);
  const now = new Date();
  const [row] = await db
    .insert(secrets)
    .values({
      environmentId: input.environment.id,
      name: input.name,
      sealed,
      version: 1,
      updatedBy: input.operator.id,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [secrets.environmentId, secrets.name],
      set: { sealed, version: sql`${secrets.version} + 1`, updatedBy: input.operator.id, updatedAt: now },
    })
    .returning({ version: secrets.version });
  if (!row) throw new Error('secret upsert returned no row');
  return { name: input.name, version: row.version, updated_by: input.operator.name, updated_at: now.toISOString() };
}

/** Deletes a secret, unless a document live in its environment refers to it. */
export async function deleteSecret(db: Db, environment: Environment, name: string): Promise<void> {
  // The lock deploys take: no deploy can put a reference live between this check and the delete.
  await lockEnvironment(db, environment);
  const users = await liveDocumentsReferring(db, environment.id, name);
  if (users.length > 0) {
    throw conflict(
      `${name} is referred to by ${users.join(', ')}, live in ${environment.name}; deploy a revision without the reference first`,
    );
  }
  const deleted = await db
    .delete(secrets)
    .where(and(eq(secrets.environmentId, environment.id), eq(secrets.name, name)))
    .returning({ name: secrets.name });
  if (deleted.length === 0) throw noSuchSecret(name, environment);
}

export function noSuchSecret(name: string, environment: Environment) {
  return notFound(`no such secret: ${name} in ${environment.name}`);
}

/** A secret's version, or null when the environment does not hold it. */
export async function secretVersion(db: Db, environmentId: string, name: string): Promise<number | null> {
  const [row] = await db
    .select({ version: secrets.version })
    .from(secrets)
    .where(and(eq(secrets.environmentId, environmentId), eq(secrets.name, name)));
  return row?.version ?? null;
}

/** The paths live in the environment whose text refers to the secret. */
async function liveDocumentsReferring(db: Db, environmentId: string, name: string): Promise<string[]> {
  const live = await db
    .select({ path: liveDocuments.path, text: revisions.text })
    .from(liveDocuments)
    .innerJoin(
      revisions,
      and(eq(revisions.documentId, liveDocuments.documentId), eq(revisions.number, liveDocuments.revision)),
    )
    .where(eq(liveDocuments.environmentId, environmentId));
  return live.filter((doc) => secretReferences(parseDocument(doc.text)).has(name)).map((doc) => doc.path);
}

export interface OpenedSecret {
  value: string;
  version: number;
}

/** The values of the named secrets of an environment (those it holds), with their versions: for the live endpoint alone. */
export async function openSecrets(db: Db, box: SecretBox, environmentId: string, names: string[]): Promise<Map<string, OpenedSecret>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .select({ name: secrets.name, sealed: secrets.sealed, version: secrets.version })
    .from(secrets)
    .where(and(eq(secrets.environmentId, environmentId), inArray(secrets.name, names)));
  return new Map(rows.map((r) => [r.name, { value: box.open(r.sealed), version: r.version }]));
}
