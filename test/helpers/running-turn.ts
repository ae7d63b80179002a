// A turn of a thread running on another server, as the store holds it: an
// agent attached to the thread proposes only while one runs (DESIGN.md §14).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../src/store/db.js';
import { turns } from '../../src/store/schema.js';

/** Runs `work` while a turn of the thread runs elsewhere (its lease a minute long), then ends that turn. */
export async function whileTurnRunsElsewhere<T>(db: Db, threadId: string, work: () => Promise<T>): Promise<T> {
  await db.insert(turns).values({ threadId, server: 'elsewhere', leaseUntil: sql`now() + interval '1 minute'` });
  try {
    return await work();
  } finally {
    await db
      .update(turns)
      .set({ endedAt: sql`now()`, stopReason: 'end_turn' })
      .where(and(eq(turns.threadId, threadId), isNull(turns.endedAt)));
  }
}
