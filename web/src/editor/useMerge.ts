// The merge the operator is asked for (MergePanel): their revision, the one
// the operator's text started from, and that text as the panel shows it. The
// operator's decision changes the buffer as one edit (Ctrl+Z undoes it), says
// so, and gives the focus back to the text.
import { useState } from 'react';
import { useRevisionText } from '../api/queries';
import type { RevisionView } from '../../../src/wire/document';
import type { CodeMirrorHandle } from './useCodeMirror';
import type { Notices } from './notice';

interface Asked {
  theirs: RevisionView;
  base: number | null;
  mine: string;
  /** Bumped when the operator's text changed under the panel: it asks afresh. */
  round: number;
}

interface Options {
  project: string;
  path: string;
  editor: CodeMirrorHandle;
  notice: Notices;
  /** The revision the buffer's text was typed on and its text, when known here: a merge over it opens at once. */
  known: { base: number | null; baseText: string | undefined };
  /** Holds `revision` as saved, with `text` in the buffer. */
  show(revision: RevisionView, text: string): void;
}

export function useMerge({ project, path, editor, notice, known, show }: Options) {
  const [asked, setAsked] = useState<Asked | null>(null);
  const knownText = asked && asked.base === known.base ? known.baseText : undefined;
  const base = useRevisionText(project, path, knownText === undefined ? (asked?.base ?? undefined) : undefined);
  const baseText = asked?.base === null ? '' : (knownText ?? base.data ?? null);

  function decided(revision: RevisionView, text: string, sentence: string) {
    show(revision, text);
    setAsked(null);
    notice.say(sentence);
    editor.focus();
  }

  return {
    asked,
    baseText,
    open(theirs: RevisionView, base: number | null) {
      setAsked({ theirs, base, mine: editor.text(), round: (asked?.round ?? 0) + 1 });
    },
    merge(text: string) {
      if (!asked) return;
      const now = editor.text();
      // The operator typed while the panel showed an older text: merge what they see, never what they did not.
      if (now !== asked.mine) return setAsked({ ...asked, mine: now, round: asked.round + 1 });
      const { revision, author } = asked.theirs;
      decided(asked.theirs, text, `Merged with r${revision} by ${author ?? 'someone'}: check it, then Save. Ctrl+Z undoes the merge.`);
    },
    takeTheirs() {
      if (!asked) return;
      decided(asked.theirs, asked.theirs.text, `Took r${asked.theirs.revision}; Ctrl+Z in the editor brings your text back.`);
    },
  };
}
