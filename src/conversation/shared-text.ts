// The shared document's text as the store holds it: a base text in
// thread_contexts.document_text and, after it, one row per edit batch in
// thread_context_edits with only what that batch replaced, so a batch of a
// few small edits writes a few bytes, not the whole text. Once the log passes
// its bound the next batch stores the whole text as the new base instead,
// which keeps replaying cheap beside reading the base.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { applyReplacements, type Replacement } from '../documents/index.js';
import type { Db } from '../store/db.js';
import { threadContextEdits, threadContexts } from '../store/schema.js';

/** At most this many batches in the log… */
const MAX_LOG_BATCHES = 64;
/** …and at most this much of them (JSON characters), or a quarter of the text when that is more. */
const MIN_LOG_SIZE = 64 * 1024;

const { documentText: _base, ...columnsButText } = getTableColumns(threadContexts);

/** thread_contexts' columns but the base text: enough when the current text is in memory. */
export const contextColumns = columnsButText;

export type ContextRow = Omit<typeof threadContexts.$inferSelect, 'documentText'>;

type TextColumns = Pick<typeof threadContexts.$inferInsert, 'documentText' | 'editLogBatches' | 'editLogSize'>;

/** The thread's context row and its current text, read in one statement so that no concurrent batch or compaction tears them. */
export async function contextWithText(db: Db, threadId: string): Promise<{ row: ContextRow; text: string | null } | undefined> {
  const [found] = await db
    .select({
      ...getTableColumns(threadContexts),
      batches: sql<Replacement[][]>`(select coalesce(jsonb_agg(${threadContextEdits.replacements} order by ${threadContextEdits.revision}), '[]'::jsonb)
        from ${threadContextEdits} where ${threadContextEdits.threadId} = ${threadId})`,
    })
    .from(threadContexts)
    .where(eq(threadContexts.threadId, threadId))
    .limit(1);
  if (!found) return undefined;
  const { documentText, batches, ...row } = found;
  return { row, text: documentText === null ? null : applyReplacements(documentText, batches.flat()) };
}

/**
 * Logs the batch that made `text` at `revision` from the row's current text,
 * or, when the log would pass its bound, stores `text` as the new base.
 * Returns the columns to set on the row with it (under its lock).
 */
export async function storeBatch(
  tx: Db,
  threadId: string,
  log: Pick<ContextRow, 'editLogBatches' | 'editLogSize'>,
  batch: { revision: number; text: string; replacements: Replacement[] },
): Promise<TextColumns> {
  const size = log.editLogSize + JSON.stringify(batch.replacements).length;
  const batches = log.editLogBatches + 1;
  if (batches > MAX_LOG_BATCHES || size > Math.max(MIN_LOG_SIZE, batch.text.length / 4)) return storeBase(tx, threadId, batch.text);
  await tx.insert(threadContextEdits).values({ threadId, revision: batch.revision, replacements: batch.replacements });
  return { editLogBatches: batches, editLogSize: size };
}

/** Clears the log: `text` becomes the whole base, with the columns returned. */
export async function storeBase(tx: Db, threadId: string, text: string | null): Promise<TextColumns> {
  await tx.delete(threadContextEdits).where(eq(threadContextEdits.threadId, threadId));
  return { documentText: text, editLogBatches: 0, editLogSize: 0 };
}
