// Session credentials: `aion_ses_…`, valid 12 hours, naming one conversation
// and acting with its operator's permissions. They open only /mcp and their
// own thread's context route, and die with the thread.
import { eq } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { mintToken } from '../access/tokens.js';
import type { AuditLog } from '../domain/audit.js';
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
  db: Db,
  audit: AuditLog,
  operator: Operator,
  thread: { id: string; project: string | null; environment: string },
): Promise<SessionCredential> {
  const expiresAt = new Date(Date.now() + SESSION_HOURS * 3600 * 1000);
  return db.transaction(async (tx) => {
    const minted = await mintToken(tx, {
      operatorId: operator.id,
      name: `conversation ${thread.id}`,
      kind: 'session',
      threadId: thread.id,
      expiresAt,
    });
    await audit.write(tx, {
      operator: operator.name,
      via: 'rest',
      tool: 'session:create',
      project: thread.project,
      environment: thread.environment || null,
      threadId: thread.id,
      outcome: 'ok',
      input: { id: minted.id },
    });
    return { id: minted.id, token: minted.token, thread: thread.id, expires_at: expiresAt.toISOString() };
  });
}

/** Revokes a session credential (an agent's, when its process stops); every server refuses it from the commit on. */
export async function revokeSessionCredential(db: Db, changes: Changes, id: string): Promise<void> {
  await changes.transaction(db, async (tx, touch) => {
    await tx.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, id));
    touch(`token:${id}`);
  });
}
