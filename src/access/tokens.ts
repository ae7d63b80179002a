// Bearer tokens: minted as `aion_` + 43 base64url characters (32 random bytes),
// stored only as SHA-256 hashes, refused at once when revoked.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { environments, operators, projects, tokens, type TokenKind } from '../store/schema.js';
import type { Operator } from './operators.js';

const PREFIX: Record<TokenKind, string> = { operator: 'aion_', service: 'aion_svc_' };
/** How stale last-used may get before a request records it again. */
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_TOKEN_LENGTH = 256;

export function generateToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type Caller =
  | { kind: 'operator'; tokenId: string; operator: Operator }
  | { kind: 'service'; tokenId: string; operator: Operator; environmentId: string };

/** The caller a bearer token stands for, or null for a missing, unknown or revoked one. */
export async function authenticate(db: Db, token: string | undefined): Promise<Caller | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const [row] = await db
    .select({
      id: tokens.id,
      kind: tokens.kind,
      environmentId: tokens.environmentId,
      lastUsedAt: tokens.lastUsedAt,
      operator: { id: operators.id, name: operators.name, owner: operators.owner },
    })
    .from(tokens)
    .innerJoin(operators, eq(operators.id, tokens.operatorId))
    .where(and(eq(tokens.hash, hashToken(token)), isNull(tokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.update(tokens).set({ lastUsedAt: now }).where(eq(tokens.id, row.id));
  }
  if (row.kind === 'service') {
    if (!row.environmentId) return null;
    return { kind: 'service', tokenId: row.id, operator: row.operator, environmentId: row.environmentId };
  }
  return { kind: 'operator', tokenId: row.id, operator: row.operator };
}

export interface MintedToken {
  id: string;
  name: string;
  kind: TokenKind;
  token: string;
  created_at: string;
}

/** Stores a new token (or the given one, for AION_ADMIN_TOKEN) and returns it once. */
export async function mintToken(
  db: Db,
  input: { operatorId: string; name: string; kind: TokenKind; environmentId?: string | null; token?: string },
): Promise<MintedToken> {
  const token = input.token ?? generateToken(input.kind);
  const [row] = await db
    .insert(tokens)
    .values({
      operatorId: input.operatorId,
      name: input.name,
      kind: input.kind,
      hash: hashToken(token),
      environmentId: input.environmentId ?? null,
    })
    .returning({ id: tokens.id, createdAt: tokens.createdAt });
  if (!row) throw new Error('token insert returned no row');
  return { id: row.id, name: input.name, kind: input.kind, token, created_at: row.createdAt.toISOString() };
}

export interface TokenListing {
  id: string;
  name: string;
  kind: TokenKind;
  project: string | null;
  environment: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** The operator's live tokens, newest first; never the tokens themselves. */
export async function listTokens(db: Db, operatorId: string): Promise<TokenListing[]> {
  const rows = await db
    .select({
      id: tokens.id,
      name: tokens.name,
      kind: tokens.kind,
      createdAt: tokens.createdAt,
      lastUsedAt: tokens.lastUsedAt,
      project: projects.slug,
      environment: environments.name,
    })
    .from(tokens)
    .leftJoin(environments, eq(environments.id, tokens.environmentId))
    .leftJoin(projects, eq(projects.id, environments.projectId))
    .where(and(eq(tokens.operatorId, operatorId), isNull(tokens.revokedAt)))
    .orderBy(desc(tokens.createdAt), desc(tokens.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    project: r.project,
    environment: r.environment,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function revokeToken(db: Db, operatorId: string, tokenId: string): Promise<void> {
  const missing = () => notFound(`no such token: ${tokenId}; list yours with GET /api/v1/tokens`);
  if (!isUuid(tokenId)) throw missing();
  const revoked = await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.id, tokenId), eq(tokens.operatorId, operatorId), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  if (revoked.length === 0) throw missing();
}
