// The open document's state: the revision it opened with (read early, see
// opening.ts) or the one saved since, the revision the buffer's text is based
// on (what Save sends), whether the buffer differs from the saved text, and
// the tab's draft of that text, kept as it changes.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { queryKeys } from '../api/queryKeys';
import type { RevisionView } from '../../../src/domain/documents';
import { keepDraft, readDraft } from './drafts';
import { openingRevisionQuery } from './opening';

export interface EditorDocument {
  /** The failure to read it, '' when none. */
  error: string;
  /** The saved revision; null for a document not saved yet. */
  saved: RevisionView | null;
  /** The revision the buffer's text was typed on. */
  base: number | null;
  dirty: boolean;
  /** The text to open with (the tab's draft, or the saved text); null while loading. */
  initial: string | null;
  /** The buffer's text changed. */
  onText(text: string): void;
  /** `revision` is saved now, and `text` is (or is about to be) the buffer's. */
  hold(revision: RevisionView, text: string): void;
}

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
  const draft = useMemo(() => (opened === undefined ? null : readDraft(project, path)), [opened, project, path]);
  const saved = held ?? opened ?? null;
  const base = held ? held.revision : draft ? draft.base : (opened?.revision ?? null);
  const dirty = typedDirty ?? (opened !== undefined && draft !== null && draft.text !== opened?.text);

  // What onText compares with: the buffer changes inside hold(), before React renders again.
  const current = useRef({ saved, base });
  useLayoutEffect(() => {
    current.current = { saved, base };
  }, [saved, base]);

  const onText = useCallback(
    (text: string) => {
      const changed = text !== (current.current.saved?.text ?? '');
      setTypedDirty(changed);
      keepDraft(project, path, changed ? { base: current.current.base, text } : null);
    },
    [project, path],
  );

  const hold = useCallback(
    (revision: RevisionView, text: string) => {
      current.current = { saved: revision, base: revision.revision };
      setHeld(revision);
      onText(text);
    },
    [onText],
  );

  return {
    error: opening.error ? opening.error.message : '',
    saved,
    base,
    dirty,
    initial: opened === undefined ? null : (draft?.text ?? opened?.text ?? ''),
    onText,
    hold,
  };
}
