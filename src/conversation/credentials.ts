// Session credentials: `aion_ses_…`, naming one conversation and acting with
// its operator's permissions: a connected client's valid 12 hours, a hosted
// agent's briefly and renewed by the server holding its process, so a dead
// server's agent credential soon expires. They open only /mcp and their own
// thread's context route, and die with the thread; its operator lists the
// live ones (never the token) and revokes any of them.
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { mintToken } from '../access/tokens.js';
import { perform, type ActionDeps, type Actor } from '../domain/actions.js';
import { notFound } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import { storeNow } from '../store/clock.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { tokens } from '../store/schema.js';
import type { CredentialHolder, SessionCredential, SessionCredentialListing } from '../wire/session-credential.js';

export type { CredentialHolder, SessionCredential, SessionCredentialListing };

const CLIENT_CREDENTIAL_MS = 12 * 3600 * 1000;

/** A credential's stored name says its holder. */
const HOLDER_NAMES: Record<CredentialHolder, string> = { agent: 'hosted agent', client: 'connected client' };

interface ThreadScope {
  id: string;
  project: string | null;
  environment: string;
}

/** A credential for the thread: `lifetimeMs` from now (a connected client's 12 hours unless told). */
export async function mintSessionCredential(
  deps: ActionDeps,
  actor: Actor,
  thread: ThreadScope,
  lifetimeMs = CLIENT_CREDENTIAL_MS,
): Promise<SessionCredential> {
  const expiresAt = new Date(Date.now() + lifetimeMs);
  // The server mints for the agent it starts as the assistant; anyone else mints for a client.
  const name = HOLDER_NAMES[actor.via === 'assistant' ? 'agent' : 'client'];
  const minted = await perform(deps, actor, {
    ...auditedOn(thread),
    name: 'session:create',
    input: {},
    refusal: null,
    run: (tx) => mintToken(tx, { operatorId: actor.operator.id, name, kind: 'session', threadId: thread.id, expiresAt }),
    made: (token) => ({ id: token.id }),
  });
  return { id: minted.id, token: minted.token, thread: thread.id, expires_at: expiresAt.toISOString() };
}

/** The thread's live session credentials, newest first. */
export async function listSessionCredentials(db: Db, threadId: string): Promise<SessionCredentialListing[]> {
  const rows = await db
    .select({ id: tokens.id, name: tokens.name, createdAt: tokens.createdAt, expiresAt: tokens.expiresAt, lastUsedAt: tokens.lastUsedAt })
    .from(tokens)
    .where(live(threadId))
    .orderBy(desc(tokens.createdAt), desc(tokens.id));
  // Every live one expires (the filter compares its expiry); the check only tells the type so.
  return rows.flatMap((r) =>
    r.expiresAt
      ? [
          {
            id: r.id,
            holder: r.name === HOLDER_NAMES.agent ? ('agent' as const) : ('client' as const),
            created_at: r.createdAt.toISOString(),
            expires_at: r.expiresAt.toISOString(),
            last_used_at: r.lastUsedAt?.toISOString() ?? null,
          },
        ]
      : [],
  );
}

/** The operator revokes one of the thread's live credentials, audited like the mint; every server refuses it from the commit on. */
export async function revokeThreadCredential(deps: ActionDeps, actor: Actor, thread: ThreadScope, credentialId: string): Promise<void> {
  const missing = () => notFound(`no live session credential ${credentialId} on this thread; list them with GET …/session-credentials`);
  await perform(deps, actor, {
    ...auditedOn(thread),
    name: 'session:revoke',
    input: { id: credentialId },
    refusal: null,
    run: async (tx, touch) => {
      if (!isUuid(credentialId)) throw missing();
      const revoked = await tx
        .update(tokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(tokens.id, credentialId), live(thread.id)))
        .returning({ id: tokens.id });
      if (revoked.length === 0) throw missing();
      touch(`token:${credentialId}`);
    },
  });
}

/** Revokes a session credential (an agent's, when its process stops); every server refuses it from the commit on. */
export async function revokeSessionCredential(db: Db, changes: Changes, id: string): Promise<void> {
  await changes.transaction(db, async (tx, touch) => {
    await tx.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, id));
    touch(`token:${id}`);
  });
}

/** Pushes the expiry of hosted agents' live credentials to `lifetimeMs` from now (the store's clock, the one every server reads). */
export async function renewAgentCredentials(db: Db, ids: string[], lifetimeMs: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(tokens)
    .set({ expiresAt: storeNow(lifetimeMs) })
    .where(and(inArray(tokens.id, ids), isNull(tokens.revokedAt)));
}

/** Revokes the live credentials of the hosted agents of these threads, in `tx`; every server refuses them from the commit on. */
export async function revokeAgentCredentials(tx: Db, touch: (topic: Topic) => void, threadIds: string[]): Promise<void> {
  if (threadIds.length === 0) return;
  const revoked = await tx
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(inArray(tokens.threadId, threadIds), eq(tokens.kind, 'session'), eq(tokens.name, HOLDER_NAMES.agent), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  for (const { id } of revoked) touch(`token:${id}`);
}

function auditedOn(thread: ThreadScope) {
  return { project: thread.project, environment: thread.environment || null, threadId: thread.id };
}

function live(threadId: string) {
  return and(eq(tokens.threadId, threadId), eq(tokens.kind, 'session'), isNull(tokens.revokedAt), gt(tokens.expiresAt, new Date()));
}
