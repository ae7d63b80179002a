// The open document's state: the revision it opened with (read early, see
// opening.ts) or the one saved since, the revision the buffer's text is based
// on (what Save sends), whether the buffer differs from the saved text, and
// the tab's draft of that text, kept a moment after it changes. A key typed
// copies nothing of a large text: whether it differs from the saved text is
// settled by its length when that differs; the draft is written once typing
// pauses, when the editor closes and when the tab goes, and a large one as
// its changes from the base revision's text (composed key by key, see drafts.ts).
import { ChangeSet, Text } from '@codemirror/state';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useRevisionText } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import type { RevisionView } from '../../../src/wire/document';
import { changesBetween } from './changes';
import { keepDraft, readDraft, WHOLE_DRAFT_MAX, type Draft, type StoredDraft } from './drafts';
import { openingRevisionQuery } from './opening';

export interface EditorDocument {
  /** The failure to read it, '' when none. */
  error: string;
  /** The saved revision; null for a document not saved yet. */
  saved: RevisionView | null;
  /** The revision the buffer's text was typed on. */
  base: number | null;
  /** The text of `base` when known here (undefined: read it), so a merge over it asks nothing of the server. */
  baseText: string | undefined;
  dirty: boolean;
  /** The text to open with (the tab's draft, or the saved text); null while loading. */
  initial: string | null;
  /** A view opened with `initial` (as `text`): what is typed is tracked from there. */
  onOpen(text: Text): void;
  /** The buffer's text changed to `text` by `changes` (read as a string only when needed). */
  onEdit(text: Text, changes: ChangeSet): void;
  /** Keeps the draft of the last edit now, not a moment later (the editor or the tab is going). */
  keepNow(): void;
  /** `revision` is saved now, and `text` is (or is about to be) the buffer's. */
  hold(revision: RevisionView, text: string): void;
}

/** How long typing pauses before the draft is written (a reload or a close writes it at once). */
const DRAFT_DELAY_MS = 500;

export function useEditorDocument(project: string, path: string): EditorDocument {
  const queries = useQueryClient();
  const opening = useQuery(openingRevisionQuery(project, path));
  // Read once per opening: the next opening of this document reads it afresh.
  useEffect(() => () => queries.removeQueries({ queryKey: queryKeys.editorOpening(project, path) }), [queries, project, path]);
  const [held, setHeld] = useState<RevisionView | null>(null);
  const [typedDirty, setTypedDirty] = useState<boolean | null>(null);

  const opened = opening.data;
  // Read with each opening: one read again (the operator switched, which clears what the tab read) opens with
  // what was typed since, not with the draft the page first found.
  const stored = useMemo(() => (opened === undefined ? null : readDraft(project, path)), [opened, project, path]);
  // A draft kept as changes of an older revision (saved elsewhere since) needs that revision's text.
  const olderBase = stored && 'changes' in stored && stored.base !== null && stored.base !== opened?.revision ? stored.base : undefined;
  const olderBaseText = useRevisionText(project, path, olderBase).data;
  // The text the draft was typed on; undefined while it loads, or not known (a whole draft of an older revision).
  const draftBaseText = !stored
    ? undefined
    : stored.base === null
      ? ''
      : stored.base === opened?.revision
        ? opened.text
        : 'changes' in stored
          ? olderBaseText
          : undefined;
  const draft = useMemo(() => resolveDraft(stored, draftBaseText), [stored, draftBaseText]);
  const saved = held ?? opened ?? null;
  const base = held ? held.revision : stored ? stored.base : (opened?.revision ?? null);
  const baseText = held ? held.text : stored ? draftBaseText : (opened?.text ?? '');
  const dirty = typedDirty ?? (opened !== undefined && draft !== null && draft.text !== opened?.text);

  // What an edit compares with: the buffer changes inside hold(), before React renders again.
  const current = useRef({ saved, base, baseText, stored, held });
  useLayoutEffect(() => {
    // While the document is read again (the operator switched), the last known stays: the closing view keeps its draft by it.
    if (opened === undefined && held === null) return;
    current.current = { saved, base, baseText, stored, held };
  }, [opened, saved, base, baseText, stored, held]);

  /** The last edit not yet kept, and the buffer's changes from the base text (null: not known, found by a diff when kept). */
  const pending = useRef<{ text: Text; timer: number } | null>(null);
  const sinceBase = useRef<ChangeSet | null>(null);

  /** The buffer holds `text`: the draft is kept when it differs from the saved text, dropped when not. */
  const settle = useCallback(
    (text: Text | string) => {
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = null;
      const { saved: savedNow, base: baseNow, baseText: from } = current.current;
      const savedText = savedNow?.text ?? '';
      const changed = text.length !== savedText.length || text.toString() !== savedText;
      setTypedDirty(changed);
      if (!changed || text.length <= WHOLE_DRAFT_MAX || from === undefined) {
        keepDraft(project, path, changed ? { base: baseNow, text: text.toString() } : null);
        return;
      }
      sinceBase.current ??= changesBetween(from, text.toString());
      keepDraft(project, path, { base: baseNow, changes: sinceBase.current.toJSON() });
    },
    [project, path],
  );

  const keepNow = useCallback(() => {
    if (pending.current) settle(pending.current.text);
  }, [settle]);

  const onOpen = useCallback((text: Text) => {
    const { stored: kept, held: savedHere } = current.current;
    // Opened with the base text itself, or with a draft kept as its changes: known from here; otherwise found when kept.
    const opened = savedHere ? null : !kept ? ChangeSet.empty(text.length) : 'changes' in kept ? changesOf(kept.changes) : null;
    sinceBase.current = opened?.newLength === text.length ? opened : null;
  }, []);

  const onEdit = useCallback(
    (text: Text, changes: ChangeSet) => {
      const savedText = current.current.saved?.text ?? '';
      // Another length settles it without reading the text: nearly every key in a large document.
      setTypedDirty(text.length !== savedText.length || text.toString() !== savedText);
      const known = sinceBase.current;
      sinceBase.current = known && known.newLength === changes.length ? known.compose(changes) : null;
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { text, timer: window.setTimeout(keepNow, DRAFT_DELAY_MS) };
    },
    [keepNow],
  );

  // Closing the tab or reloading it, and leaving the page, keep what was typed in the last moment.
  useEffect(() => {
    window.addEventListener('pagehide', keepNow);
    return () => {
      window.removeEventListener('pagehide', keepNow);
      keepNow();
    };
  }, [keepNow]);

  const hold = useCallback(
    (revision: RevisionView, text: string) => {
      current.current = { ...current.current, saved: revision, base: revision.revision, baseText: revision.text };
      sinceBase.current = null;
      setHeld(revision);
      settle(text);
      // The buffer is about to change to `text` (or holds it already): its changes from the new base are found by
      // a diff when next kept, never composed from an edit that may have started from the text before.
      sinceBase.current = null;
    },
    [settle],
  );

  return {
    error: opening.error ? opening.error.message : '',
    saved,
    base,
    baseText,
    dirty,
    // A draft whose base text is still on its way opens once it is here.
    initial: opened === undefined || (stored !== null && 'changes' in stored && draft === null && draftBaseText === undefined) ? null : (draft?.text ?? opened?.text ?? ''),
    onOpen,
    onEdit,
    keepNow,
    hold,
  };
}

/** The draft's text: kept whole, or its changes applied to its base revision's text (undefined while that loads). */
function resolveDraft(stored: StoredDraft | null, baseText: string | undefined): Draft | null {
  if (!stored) return null;
  if ('text' in stored) return stored;
  if (baseText === undefined) return null;
  // As CodeMirror holds a text: lines, whatever their line breaks were.
  const from = Text.of(baseText.split(/\r\n?|\n/));
  const changes = changesOf(stored.changes);
  // Changes that do not fit their text (the tab's storage was edited) restore nothing.
  return changes?.length === from.length ? { base: stored.base, text: changes.apply(from).toString() } : null;
}

function changesOf(json: unknown): ChangeSet | null {
  try {
    return ChangeSet.fromJSON(json);
  } catch {
    return null;
  }
}
