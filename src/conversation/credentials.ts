// Session credentials: `aion_ses_…`, valid 12 hours, naming one conversation
// and acting with its operator's permissions. They open only /mcp and their
// own thread's context route, and die with the thread.
import { eq } from 'drizzle-orm';
import { mintToken } from '../access/tokens.js';
import { perform, type ActionDeps, type Actor } from '../domain/actions.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { tokens } from '../store/schema.js';

const SESSION_HOURS = 12;

export interface SessionCredential {
  id: string;
  token: string;
  thread: string;
  expires_at: string;
}

export async function mintSessionCredential(
  deps: ActionDeps,
  actor: Actor,
  thread: { id: string; project: string | null; environment: string },
): Promise<SessionCredential> {
  const expiresAt = new Date(Date.now() + SESSION_HOURS * 3600 * 1000);
  const minted = await perform(deps, actor, {
    name: 'session:create',
    project: thread.project,
    environment: thread.environment || null,
    threadId: thread.id,
    input: {},
    refusal: null,
    run: (tx) =>
      mintToken(tx, { operatorId: actor.operator.id, name: `conversation ${thread.id}`, kind: 'session', threadId: thread.id, expiresAt }),
    made: (token) => ({ id: token.id }),
  });
  return { id: minted.id, token: minted.token, thread: thread.id, expires_at: expiresAt.toISOString() };
}

/** Revokes a session credential (an agent's, when its process stops); every server refuses it from the commit on. */
export async function revokeSessionCredential(db: Db, changes: Changes, id: string): Promise<void> {
  await changes.transaction(db, async (tx, touch) => {
    await tx.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, id));
    touch(`token:${id}`);
  });
}
