// The context an operator's console shares with a conversation: the route it
// is on, the concepts that screen declares, and the open document with its
// unsaved text, selection and cursor. Every change of the text is one edit
// batch; `revision` counts them, the operator's and the assistant's alike.
// The selection and cursor stay on the text they were on: clamped to it when
// shared, carried through every edit batch after.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Replacement } from '../documents/index.js';
import { findConcept } from '../domain/concepts.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { threadContexts } from '../store/schema.js';
import type { ContextView, Cursor, SharedDocument } from '../wire/context.js';
import { contextColumns, contextWithText, storeBase, storeBatch, type ContextRow } from './shared-text.js';

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

/**
 * What an edit of the shared text makes: the new text and, when the editor
 * knows them, the replacements that made it, in order. Else the text alone,
 * whose change is taken as one replacement of what differs.
 */
export type EditedText = string | { text: string; replacements: Replacement[] };

function viewOf(row: ContextRow | undefined, text: string | null): ContextView {
  if (!row?.shared) return { shared: false };
  return { shared: true, url: row.url, concepts: row.concepts, document: documentOf(row, text), revision: row.revision };
}

/** Whether the operator shares their console with the thread: a subquery for a statement that reads more. */
export function sharesConsole(threadId: string): SQL<boolean> {
  return sql<boolean>`coalesce((select ${threadContexts.shared} from ${threadContexts} where ${threadContexts.threadId} = ${threadId}), false)`;
}

/** How many shared texts are kept in memory, by thread and revision, for the next edit. */
const KEPT_TEXTS = 32;

export class ConversationContexts {
  /**
   * The last text this server stored for a thread, by revision: an edit finds
   * it here instead of reading a large text back from the store. A revision
   * made elsewhere misses, and the text is read (its base, the batches after
   * it replayed).
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
    const [row] = await this.db.select(contextColumns).from(threadContexts).where(eq(threadContexts.threadId, threadId)).limit(1);
    if (!row?.shared || row.documentPath === null) return viewOf(row, null);
    const kept = this.texts.get(threadId);
    if (kept?.revision === row.revision) return viewOf(row, kept.text);
    const stored = await contextWithText(this.db, threadId);
    if (stored) this.keep(threadId, stored.row.revision, stored.text);
    return viewOf(stored?.row, stored?.text ?? null);
  }

  /** The thread's current text: the one this server kept at `revision`, else the store's. */
  private async textAt(tx: Db, threadId: string, revision: number): Promise<string | null> {
    const kept = this.texts.get(threadId);
    return kept?.revision === revision ? kept.text : ((await contextWithText(tx, threadId))?.text ?? null);
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
      const currentText = current.shared && current.documentPath !== null ? await this.textAt(tx, threadId, current.revision) : null;
      const before = current.shared ? documentOf(current, currentText) : null;
      const document = update.document === undefined ? before : update.document;
      const textChanged = before?.path !== document?.path || before?.text !== document?.text;
      const editsSharedText = before !== null && document !== null && before.path === document.path && textChanged;
      if (editsSharedText && update.base_revision !== current.revision) return { stale: viewOf(current, currentText) };
      // A new text is stored whole, as the base the next edit batches are logged against.
      const textColumns = textChanged || document === null ? await storeBase(tx, threadId, document?.text ?? null) : {};
      const [row] = await tx
        .update(threadContexts)
        .set({
          shared: true,
          url: update.url === undefined ? current.url : update.url,
          concepts: update.concepts ? declaredConcepts(update.concepts) : current.concepts,
          documentPath: document?.path ?? null,
          ...textColumns,
          ...clampedPlaces(document),
          revision: textChanged ? current.revision + 1 : current.revision,
          updatedAt: new Date(),
        })
        .where(eq(threadContexts.threadId, threadId))
        .returning(contextColumns);
      touch(`thread:${threadId}`);
      if (row) this.keep(threadId, row.revision, document?.text ?? null);
      return { view: viewOf(row, document?.text ?? null) };
    });
  }

  /**
   * Replaces the shared document's text as one edit batch, under the row
   * lock; `edit` makes the new text, or throws to change nothing.
   */
  async editText(
    threadId: string,
    edit: (document: SharedDocument) => EditedText,
  ): Promise<{ document: SharedDocument | null; revision: number }> {
    return this.changes.transaction(this.db, async (tx, touch) => {
      const [current] = await tx
        .select({
          shared: threadContexts.shared,
          revision: threadContexts.revision,
          path: threadContexts.documentPath,
          selection: threadContexts.selection,
          cursor: threadContexts.cursor,
          editLogBatches: threadContexts.editLogBatches,
          editLogSize: threadContexts.editLogSize,
        })
        .from(threadContexts)
        .where(eq(threadContexts.threadId, threadId))
        .for('update');
      if (!current?.shared || current.path === null) return { document: null, revision: current?.revision ?? 0 };
      const before = await this.textAt(tx, threadId, current.revision);
      if (before === null) return { document: null, revision: current.revision };
      const document: SharedDocument = {
        path: current.path,
        text: before,
        selection: current.selection,
        cursor: current.cursor,
      };
      const edited = edit(document);
      const text = typeof edited === 'string' ? edited : edited.text;
      const replacements = typeof edited === 'string' ? [differingSpan(before, text)] : edited.replacements;
      const places = mappedPlaces(document, text, replacements);
      const revision = current.revision + 1;
      const stored = await storeBatch(tx, threadId, current, { revision, text, replacements });
      await tx
        .update(threadContexts)
        .set({ ...stored, ...places, revision, updatedAt: new Date() })
        .where(eq(threadContexts.threadId, threadId));
      touch(`thread:${threadId}`);
      this.keep(threadId, revision, text);
      return { document: { ...document, text, ...places }, revision };
    });
  }

  /** The context once its revision passes `after`, or as it is when `seconds` run out. */
  waitForRevision(threadId: string, after: number, seconds: number, signal: AbortSignal): Promise<ContextView> {
    const passed = (view: ContextView) => view.shared && view.revision > after;
    return this.changes.waitFor([`thread:${threadId}`], () => this.read(threadId), passed, seconds * 1000, signal);
  }
}

/** The concepts the console declares, by their titles, each once; anything else is dropped. */
function declaredConcepts(names: string[]): string[] {
  return [...new Set(names.flatMap((name) => findConcept(name)?.title ?? []))];
}

type Places = Pick<SharedDocument, 'selection' | 'cursor'>;

/** The document's selection and cursor, each position moved into its text. */
function clampedPlaces(document: SharedDocument | null): Places {
  if (!document || (!document.selection && !document.cursor)) return { selection: null, cursor: null };
  const lines = new Lines(document.text);
  return placesAt(lines, offsetsOf(lines, document));
}

/** The selection and cursor carried through the replacements that made `after` of the document's text. */
function mappedPlaces(document: SharedDocument, after: string, made: Replacement[]): Places {
  if (!document.selection && !document.cursor) return { selection: null, cursor: null };
  const offsets = offsetsOf(new Lines(document.text), document);
  // A selection keeps what replaced any part of it; the caret stays before text replaced around it.
  const map = (offset: number | null, side: -1 | 1) => (offset === null ? null : made.reduce((at, r) => mapOffset(at, r, side), offset));
  return placesAt(new Lines(after), { from: map(offsets.from, -1), to: map(offsets.to, 1), cursor: map(offsets.cursor, -1) });
}

interface Offsets {
  from: number | null;
  to: number | null;
  cursor: number | null;
}

function offsetsOf(lines: Lines, { selection, cursor }: SharedDocument): Offsets {
  return {
    from: selection ? lines.offset(selection.from_line, selection.from_column) : null,
    to: selection ? lines.offset(selection.to_line, selection.to_column) : null,
    cursor: cursor ? lines.offset(cursor.line, cursor.column) : null,
  };
}

function placesAt(lines: Lines, { from, to, cursor }: Offsets): Places {
  const start = from === null ? null : lines.position(from);
  const end = to === null ? null : lines.position(to);
  const caret = cursor === null ? null : lines.position(cursor);
  return {
    selection: start && end ? { from_line: start.line, from_column: start.column, to_line: end.line, to_column: end.column } : null,
    cursor: caret,
  };
}

/** Where `offset` is once `r` is made; `side` says where a position inside the replaced text (or at an insertion) goes. */
function mapOffset(offset: number, r: Replacement, side: -1 | 1): number {
  const end = r.at + r.removed;
  if (offset < r.at || (offset === r.at && (r.removed > 0 || side < 0))) return offset;
  if (offset > end || (offset === end && r.removed > 0)) return offset + r.text.length - r.removed;
  return side < 0 ? r.at : r.at + r.text.length;
}

/** The one span where `before` and `after` differ, between their common start and end. */
function differingSpan(before: string, after: string): Replacement {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { at: start, removed: before.length - start - end, text: after.slice(start, after.length - end) };
}

/** A text's lines as the console's editor breaks them (\r\n, \r or \n); columns count UTF-16 code units, one-based. */
class Lines {
  /** Where each line starts, and where it ends before its line break. */
  private readonly starts: number[] = [0];
  private readonly ends: number[] = [];

  constructor(text: string) {
    for (const lineBreak of text.matchAll(/\r\n?|\n/g)) {
      this.ends.push(lineBreak.index);
      this.starts.push(lineBreak.index + lineBreak[0].length);
    }
    this.ends.push(text.length);
  }

  /** The offset of a one-based line and column, moved onto the text when past a line's end or the last line. */
  offset(line: number, column: number): number {
    const index = Math.min(line, this.starts.length) - 1;
    const start = this.starts[index] ?? 0;
    return Math.min(start + column - 1, this.ends[index] ?? start);
  }

  position(offset: number): Cursor {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    const start = this.starts[low] ?? 0;
    return { line: low + 1, column: Math.min(offset, this.ends[low] ?? start) - start + 1 };
  }
}

function documentOf(row: ContextRow, text: string | null): SharedDocument | null {
  return row.documentPath === null || text === null
    ? null
    : {
        path: row.documentPath,
        text,
        selection: row.selection,
        cursor: row.cursor,
      };
}

/** The thread's context row, created empty on first use, locked for this transaction. */
async function lockedRow(tx: Db, threadId: string): Promise<ContextRow> {
  await tx.insert(threadContexts).values({ threadId, shared: false }).onConflictDoNothing();
  const [row] = await tx.select(contextColumns).from(threadContexts).where(eq(threadContexts.threadId, threadId)).for('update');
  if (!row) throw new Error('the context row went missing inside its transaction');
  return row;
}
