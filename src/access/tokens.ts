// Bearer tokens: minted as `aion_` + 43 base64url characters (32 random bytes),
// stored only as SHA-256 hashes, refused at once when revoked or when their
// operator is disabled.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { notFound } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { environments, operators, projects, tokens, type TokenKind } from '../store/schema.js';
import type { Operator } from './operators.js';

const PREFIX: Record<TokenKind, string> = { operator: 'aion_', service: 'aion_svc_', session: 'aion_ses_' };
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
  | { kind: 'service'; tokenId: string; operator: Operator; environmentId: string }
  /** A session credential: one conversation, acting with its operator's permissions. */
  | { kind: 'session'; tokenId: string; operator: Operator; threadId: string };

interface Known {
  caller: Caller;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/**
 * Turns bearer tokens into callers. Good tokens are remembered by hash until
 * a change notice says they were revoked (here or on another server), so a
 * request costs no query (while notices do not arrive, every request asks
 * the store); last-used is written at most once a minute.
 */
export class Authenticator {
  private readonly known = new Map<string, Known>();
  /** Lookups under way: those asking meanwhile share one (a thousand held requests woken at once ask once). */
  private readonly asking = new Map<string, Promise<Known | null>>();
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
  ) {
    changes.subscribe((topic) => {
      const [kind, id] = topic.split(':');
      if (topic !== '*' && kind !== 'token' && kind !== 'operator') return;
      this.generation++;
      // Who asks after the notice asks afresh.
      this.asking.clear();
      if (topic === '*') return this.known.clear();
      for (const [hash, entry] of this.known) {
        if ((kind === 'token' ? entry.caller.tokenId : entry.caller.operator.id) === id) this.known.delete(hash);
      }
    });
  }

  /** The caller a bearer token stands for, or null for a missing, unknown or revoked one. */
  async authenticate(token: string | undefined): Promise<Caller | null> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return null;
    const hash = hashToken(token);
    const now = new Date();
    let entry = this.known.get(hash) ?? null;
    // Past the expiry it was read with, a token is read again: a hosted agent's is renewed in the store, unannounced.
    if (entry?.expiresAt && entry.expiresAt <= now) {
      this.known.delete(hash);
      entry = null;
    }
    entry ??= await this.shared(hash);
    if (!entry || (entry.expiresAt && entry.expiresAt <= now)) return null;
    if (!entry.lastUsedAt || now.getTime() - entry.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      entry.lastUsedAt = now;
      await this.db.update(tokens).set({ lastUsedAt: now }).where(eq(tokens.id, entry.caller.tokenId));
    }
    return entry.caller;
  }

  private shared(hash: string): Promise<Known | null> {
    const under = this.asking.get(hash);
    if (under) return under;
    const asked = this.lookup(hash).finally(() => {
      if (this.asking.get(hash) === asked) this.asking.delete(hash);
    });
    this.asking.set(hash, asked);
    return asked;
  }

  private async lookup(hash: string): Promise<Known | null> {
    const generation = this.generation;
    const [row] = await this.db
      .select({
        id: tokens.id,
        kind: tokens.kind,
        environmentId: tokens.environmentId,
        threadId: tokens.threadId,
        expiresAt: tokens.expiresAt,
        lastUsedAt: tokens.lastUsedAt,
        operator: { id: operators.id, name: operators.name, owner: operators.owner },
      })
      .from(tokens)
      .innerJoin(operators, eq(operators.id, tokens.operatorId))
      .where(and(eq(tokens.hash, hash), isNull(tokens.revokedAt), isNull(operators.disabledAt)))
      .limit(1);
    if (!row) return null;
    const caller = callerOf(row);
    if (!caller) return null;
    const entry = { caller, lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt };
    if (generation === this.generation && this.changes.hearing) this.known.set(hash, entry);
    return entry;
  }
}

function callerOf(row: {
  id: string;
  kind: TokenKind;
  environmentId: string | null;
  threadId: string | null;
  operator: Operator;
}): Caller | null {
  switch (row.kind) {
    case 'operator':
      return { kind: 'operator', tokenId: row.id, operator: row.operator };
    case 'service':
      return row.environmentId ? { kind: 'service', tokenId: row.id, operator: row.operator, environmentId: row.environmentId } : null;
    case 'session':
      return row.threadId ? { kind: 'session', tokenId: row.id, operator: row.operator, threadId: row.threadId } : null;
  }
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
  input: {
    operatorId: string;
    name: string;
    kind: TokenKind;
    environmentId?: string | null;
    threadId?: string | null;
    expiresAt?: Date | null;
    token?: string;
  },
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
      threadId: input.threadId ?? null,
      expiresAt: input.expiresAt ?? null,
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

/** The operator's live tokens, newest first; never the tokens themselves (session credentials belong to their threads). */
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
    .where(and(eq(tokens.operatorId, operatorId), isNull(tokens.revokedAt), ne(tokens.kind, 'session')))
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

/** Revokes one of the operator's tokens in `tx`; every server refuses it from the commit on. */
export async function revokeToken(tx: Db, touch: (topic: Topic) => void, operatorId: string, tokenId: string): Promise<void> {
  const missing = () => notFound(`no such token: ${tokenId}; list yours with GET /api/v1/tokens`);
  if (!isUuid(tokenId)) throw missing();
  const revoked = await tx
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.id, tokenId), eq(tokens.operatorId, operatorId), isNull(tokens.revokedAt), ne(tokens.kind, 'session')))
    .returning({ id: tokens.id });
  if (revoked.length === 0) throw missing();
  touch(`token:${tokenId}`);
}
