// The servers sharing the store and the agents each can run: each records
// itself at start and on every renewal of its agent leases, so a message on
// a server without the thread's agent can say which servers have it.
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import { storeNow } from '../store/clock.js';
import type { Db } from '../store/db.js';
import { servers } from '../store/schema.js';

/** A server seen this recently runs now: a minute, or one lease when longer (it records itself thrice a lease). */
const SEEN_WITHIN_MS = 60_000;

/** Records that this server runs now, with these agents. */
export async function announceServer(db: Db, name: string, agents: string[]): Promise<void> {
  await db
    .insert(servers)
    .values({ name, agents, seenAt: storeNow() })
    .onConflictDoUpdate({ target: servers.name, set: { agents, seenAt: storeNow() } });
}

/** The server stops: it no longer offers its agents. */
export async function withdrawServer(db: Db, name: string): Promise<void> {
  await db.delete(servers).where(eq(servers.name, name));
}

/** Why this server cannot run the thread's agent, naming the other servers running now that can. */
export async function notConfiguredHere(db: Db, here: string, agent: string, turnLeaseMs: number): Promise<string> {
  const rows = await db
    .select({ name: servers.name })
    .from(servers)
    .where(
      and(
        ne(servers.name, here),
        sql`${servers.agents} @> ${JSON.stringify([agent])}::jsonb`,
        gt(servers.seenAt, storeNow(-Math.max(SEEN_WITHIN_MS, turnLeaseMs))),
      ),
    )
    .orderBy(asc(servers.name));
  const where = rows.length > 0 ? `it runs on ${rows.map((r) => r.name).join(', ')}` : 'no server running now has it';
  return `agent ${agent} is not configured on this server; ${where}`;
}
