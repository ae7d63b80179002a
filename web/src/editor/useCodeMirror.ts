// The CodeMirror view of one open document: created once per document,
// registered with the screen (for the assistant's shared context), its
// unsaved text kept as a draft, the agent's edits applied as transactions.
import { forceLinting } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Diagnostic, SharedDocument } from '../api/types';
import { editorChanged, registerEditor } from '../screen';
import { agentChangesOver, changesBetween } from './changes';
import { agentLinesOf, clearAgentLines, diffAgainst, diffCompartment, editorExtensions } from './setup';

interface Options {
  path: string;
  /** The text to open with (the draft, or the saved revision); null while loading. */
  initial: string | null;
  check: (text: string) => Promise<Diagnostic[]>;
  onText: (text: string) => void;
}

export interface CodeMirrorHandle {
  view: EditorView | null;
  text(): string;
  replace(text: string): void;
  showDiff(original: string | null): void;
  relint(): void;
  clearAgentMarks(): void;
}

export function useCodeMirror(host: RefObject<HTMLDivElement | null>, { path, initial, check, onText }: Options): CodeMirrorHandle {
  const viewRef = useRef<EditorView | null>(null);
  const latest = useRef({ check, onText });
  latest.current = { check, onText };
  const [, setReady] = useState(0);

  useEffect(() => {
    if (initial === null || !host.current) return;
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: editorExtensions({
          check: (text) => latest.current.check(text),
          onChange: (docChanged) => {
            if (docChanged) latest.current.onText(view.state.doc.toString());
            editorChanged();
          },
        }),
      }),
    });
    viewRef.current = view;
    setReady((n) => n + 1);
    const unregister = registerEditor({
      snapshot: () => snapshotOf(path, view.state),
      applyAgentText: (base, theirs) => {
        const changes = agentChangesOver(base, theirs, view.state.doc.toString());
        if (changes.empty) return;
        const after = changes.apply(view.state.doc);
        view.dispatch({ changes, effects: agentLinesOf(changes, after), userEvent: 'input.agent' });
      },
    });
    return () => {
      unregister();
      view.destroy();
      viewRef.current = null;
    };
    // One view per document: `initial` is read once, when the document first loads.
  }, [path, initial === null]);

  return {
    view: viewRef.current,
    text: () => viewRef.current?.state.doc.toString() ?? '',
    replace: (text) => {
      const view = viewRef.current;
      if (!view) return;
      // Only what differs changes, so the cursor keeps its place.
      view.dispatch({ changes: changesBetween(view.state.doc.toString(), text) });
    },
    showDiff: (original) => viewRef.current?.dispatch({ effects: diffCompartment.reconfigure(diffAgainst(original)) }),
    relint: () => {
      if (viewRef.current) forceLinting(viewRef.current);
    },
    clearAgentMarks: () => viewRef.current?.dispatch({ effects: clearAgentLines.of(null) }),
  };
}

/** The open document as the assistant sees it: text, selection and cursor, 1-based. */
function snapshotOf(path: string, state: EditorState): SharedDocument {
  const at = (pos: number) => {
    const line = state.doc.lineAt(pos);
    return { line: line.number, column: pos - line.from + 1 };
  };
  const main = state.selection.main;
  const cursor = at(main.head);
  const from = at(main.from);
  const to = at(main.to);
  return {
    path,
    text: state.doc.toString(),
    selection: main.empty ? null : { from_line: from.line, from_column: from.column, to_line: to.line, to_column: to.column },
    cursor,
  };
}
