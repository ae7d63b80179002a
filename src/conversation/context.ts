// The context an operator's console shares with a conversation: the route it
// is on, the concepts that screen declares, and the open document with its
// unsaved text, selection and cursor. Every change of the text is one edit
// batch; `revision` counts them, the operator's and the assistant's alike.
import { eq } from 'drizzle-orm';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { threadContexts } from '../store/schema.js';

export interface Selection {
  from_line: number;
  from_column: number;
  to_line: number;
  to_column: number;
}

export interface Cursor {
  line: number;
  column: number;
}

export interface SharedDocument {
  path: string;
  text: string;
  selection?: Selection | null;
  cursor?: Cursor | null;
}

/** What assistant_context returns: `{shared: false}` alone, or everything shared. */
export type ContextView =
  | { shared: false }
  | { shared: true; url: string | null; concepts: string[]; document: SharedDocument | null; revision: number };

export type ContextUpdate =
  | { shared: false }
  | {
      shared?: true;
      url?: string | null;
      concepts?: string[];
      document?: SharedDocument | null;
      /** The revision the console's text was edited on; required when it changes an already shared document's text. */
      base_revision?: number;
    };

type Row = typeof threadContexts.$inferSelect;

function viewOf(row: Row | undefined): ContextView {
  if (!row?.shared) return { shared: false };
  return { shared: true, url: row.url, concepts: (row.concepts as string[] | null) ?? [], document: documentOf(row), revision: row.revision };
}

/** How many shared texts are kept in memory, by thread and revision, for the next edit. */
const KEPT_TEXTS = 32;

export class ConversationContexts {
  /**
   * The last text this server stored for a thread, by revision: an edit finds
   * it here instead of reading a large text back from the store. A revision
   * made elsewhere misses, and the text is read.
   */
  private readonly texts = new Map<string, { revision: number; text: string }>();

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
  ) {}

  private keep(threadId: string, revision: number, text: string | null): void {
    this.texts.delete(threadId);
    if (text === null) return;
    this.texts.set(threadId, { revision, text });
    if (this.texts.size > KEPT_TEXTS) this.texts.delete(this.texts.keys().next().value ?? '');
  }

  async read(threadId: string): Promise<ContextView> {
    const [row] = await this.db.select().from(threadContexts).where(eq(threadContexts.threadId, threadId)).limit(1);
    return viewOf(row);
  }

  /**
   * Replaces what the console shares. A change of an already shared
   * document's text must name the revision it was made on: a stale one
   * changes nothing and comes back as `{stale: current}`.
   */
  async share(threadId: string, update: ContextUpdate): Promise<{ view: ContextView } | { stale: ContextView }> {
    return this.changes.transaction(this.db, async (tx, touch) => {
      const current = await lockedRow(tx, threadId);
      if (update.shared === false) {
        await tx.update(threadContexts).set({ shared: false, updatedAt: new Date() }).where(eq(threadContexts.threadId, threadId));
        touch(`thread:${threadId}`);
        return { view: { shared: false } as const };
      }
      const before = current.shared ? documentOf(current) : null;
      const document = update.document === undefined ? before : update.document;
      const textChanged = before?.path !== document?.path || before?.text !== document?.text;
      const editsSharedText = before !== null && document !== null && before.path === document.path && textChanged;
      if (editsSharedText && update.base_revision !== current.revision) return { stale: viewOf(current) };
      const [row] = await tx
        .update(threadContexts)
        .set({
          shared: true,
          url: update.url === undefined ? current.url : update.url,
          concepts: update.concepts ?? (current.concepts as string[]),
          documentPath: document?.path ?? null,
          documentText: document?.text ?? null,
          selection: document?.selection ?? null,
          cursor: document?.cursor ?? null,
          revision: textChanged ? current.revision + 1 : current.revision,
          updatedAt: new Date(),
        })
        .where(eq(threadContexts.threadId, threadId))
        .returning();
      touch(`thread:${threadId}`);
      if (row) this.keep(threadId, row.revision, row.documentText);
      return { view: viewOf(row) };
    });
  }

  /**
   * Replaces the shared document's text as one edit batch, under the row
   * lock; `edit` makes the new text, or throws to change nothing.
   */
  async editText(
    threadId: string,
    edit: (document: SharedDocument) => string,
  ): Promise<{ document: SharedDocument | null; revision: number }> {
    return this.changes.transaction(this.db, async (tx, touch) => {
      const [current] = await tx
        .select({
          shared: threadContexts.shared,
          revision: threadContexts.revision,
          path: threadContexts.documentPath,
          selection: threadContexts.selection,
          cursor: threadContexts.cursor,
        })
        .from(threadContexts)
        .where(eq(threadContexts.threadId, threadId))
        .for('update');
      if (!current?.shared || current.path === null) return { document: null, revision: current?.revision ?? 0 };
      const kept = this.texts.get(threadId);
      const before = kept?.revision === current.revision ? kept.text : await storedText(tx, threadId);
      if (before === null) return { document: null, revision: current.revision };
      const document: SharedDocument = {
        path: current.path,
        text: before,
        selection: (current.selection as Selection | null) ?? null,
        cursor: (current.cursor as Cursor | null) ?? null,
      };
      const text = edit(document);
      const revision = current.revision + 1;
      await tx
        .update(threadContexts)
        .set({ documentText: text, revision, updatedAt: new Date() })
        .where(eq(threadContexts.threadId, threadId));
      touch(`thread:${threadId}`);
      this.keep(threadId, revision, text);
      return { document: { ...document, text }, revision };
    });
  }

  /** The context once its revision passes `after`, or as it is when `seconds` run out. */
  waitForRevision(threadId: string, after: number, seconds: number, signal: AbortSignal): Promise<ContextView> {
    const passed = (view: ContextView) => view.shared && view.revision > after;
    return this.changes.waitFor([`thread:${threadId}`], () => this.read(threadId), passed, seconds * 1000, signal);
  }
}

function documentOf(row: Row): SharedDocument | null {
  return row.documentPath === null || row.documentText === null
    ? null
    : {
        path: row.documentPath,
        text: row.documentText,
        selection: (row.selection as Selection | null) ?? null,
        cursor: (row.cursor as Cursor | null) ?? null,
      };
}

async function storedText(tx: Db, threadId: string): Promise<string | null> {
  const [row] = await tx
    .select({ text: threadContexts.documentText })
    .from(threadContexts)
    .where(eq(threadContexts.threadId, threadId));
  return row?.text ?? null;
}

/** The thread's context row, created empty on first use, locked for this transaction. */
async function lockedRow(tx: Db, threadId: string): Promise<Row> {
  await tx.insert(threadContexts).values({ threadId, shared: false }).onConflictDoNothing();
  const [row] = await tx.select().from(threadContexts).where(eq(threadContexts.threadId, threadId)).for('update');
  if (!row) throw new Error('the context row went missing inside its transaction');
  return row;
}
