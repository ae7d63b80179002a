// What the editor diffs the buffer against, in the editor itself: nothing,
// the saved revision, the revision live in the environment, or a revision
// saved elsewhere (once shown: the text it replaced).
import { useEffect, useState } from 'react';
import { useRevisionText } from '../api/queries';
import type { RevisionView } from '../../../src/wire/document';
import type { CodeMirrorHandle } from './useCodeMirror';
import type { Elsewhere } from './useSavedElsewhere';

export type DiffMode = 'off' | 'saved' | 'live' | 'elsewhere';

interface Options {
  project: string;
  path: string;
  editor: CodeMirrorHandle;
  saved: RevisionView | null;
  liveRevision: number | undefined;
  elsewhere: Elsewhere | null;
}

export function useDiffView({ project, path, editor, saved, liveRevision, elsewhere }: Options) {
  const [picked, setPicked] = useState<DiffMode>('off');
  const mode: DiffMode = (picked === 'elsewhere' && !elsewhere) || (picked === 'live' && liveRevision === undefined) ? 'off' : picked;
  const live = useRevisionText(project, path, mode === 'live' ? liveRevision : undefined);

  const original =
    mode === 'saved'
      ? (saved?.text ?? '')
      : mode === 'live'
        ? (live.data ?? null)
        : mode === 'elsewhere' && elsewhere
          ? elsewhere.shown
            ? elsewhere.before
            : elsewhere.theirs.text
          : null;
  useEffect(() => editor.showDiff(original), [editor, original]);

  return { mode, pick: setPicked };
}
