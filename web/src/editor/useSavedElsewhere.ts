// A revision saved elsewhere (another operator, tab or an accepted proposal)
// is shown at once when nothing is unsaved; unsaved text stays, and the
// operator is told and picks: Diff, Merge, Reload or Dismiss (SavedElsewhere).
// The news goes once the editor holds a later revision, or theirs after a
// merge or a reload.
import { useEffect, useEffectEvent, useState } from 'react';
import type { RevisionView } from '../../../src/wire/document';
import type { Notices } from './notice';
import type { CodeMirrorHandle } from './useCodeMirror';
import { useNewerRevision } from './useNewerRevision';

export interface Elsewhere {
  theirs: RevisionView;
  /** The editor shows theirs already; `before` is the text it replaced. */
  shown: boolean;
  before: string;
}

interface Options {
  project: string;
  path: string;
  /** The newest revision the documents list names. */
  newest: number | undefined;
  base: number | null;
  dirty: boolean;
  /** A merge is open: it deals with their revision. */
  merging: boolean;
  editor: CodeMirrorHandle;
  notice: Notices;
  /** Holds `revision` as saved, with `text` in the buffer. */
  show(revision: RevisionView, text: string): void;
}

export function useSavedElsewhere({ project, path, newest, base, dirty, merging, editor, notice, show }: Options) {
  const [told, setTold] = useState<Elsewhere | null>(null);
  const newer = useNewerRevision(project, path, newest, base ?? undefined);
  // What was told of a revision, and the editor, are read as it arrives (or as the text or the merge moves on).
  const arrived = useEffectEvent((theirs: RevisionView, unsaved: boolean) => {
    if (theirs.revision === told?.theirs.revision) return;
    if (unsaved) return setTold({ theirs, shown: false, before: '' });
    const before = editor.text();
    show(theirs, theirs.text);
    setTold({ theirs, shown: true, before });
  });
  useEffect(() => {
    // The news is taken in once per revision, as CodeMirror (outside React) is given their text or keeps the operator's;
    // derived during render instead, it would decide again at each keystroke and Dismiss could not stick.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (newer && !merging) arrived(newer, dirty);
  }, [newer, merging, dirty]);

  const held = base ?? 0;
  const elsewhere = told && (told.shown ? held === told.theirs.revision : held < told.theirs.revision) ? told : null;

  return {
    elsewhere,
    reload() {
      if (!elsewhere) return;
      show(elsewhere.theirs, elsewhere.theirs.text);
      notice.say(`Reloaded r${elsewhere.theirs.revision}; Ctrl+Z in the editor brings your text back.`);
      editor.focus();
    },
    dismiss() {
      setTold(null);
      editor.focus();
    },
  };
}
