// The CodeMirror view of one open document: created once per document,
// registered with the screen (for the assistant's shared context), its
// unsaved text kept as a draft, the agent's edits applied as transactions.
import { isolateHistory } from '@codemirror/commands';
import { forceLinting } from '@codemirror/lint';
import { openSearchPanel } from '@codemirror/search';
import { EditorSelection, EditorState, type ChangeSet, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Diagnostic } from '../../../src/wire/diagnostic';
import type { SharedDocument } from '../../../src/wire/context';
import { editorChanged, registerEditor } from '../screen';
import { BufferChecker } from './bufferChecker';
import { agentChangesOver, changesBetween } from './changes';
import { access, accessCompartment, agentLinesOf, clearAgentLines, diffAgainst, diffCompartment, editorExtensions, recheck } from './setup';

interface Options {
  path: string;
  /** The text to open with (the draft, or the saved revision); null while loading. */
  initial: string | null;
  writable: boolean;
  /** The id of the sentence saying why the text is read-only, once shown. */
  readOnlyWhy: string | null;
  check: (text: Text, checker: BufferChecker) => Promise<Diagnostic[]>;
  /** The view opened with this text. */
  onOpen: (text: Text) => void;
  /** The text changed by `changes`: CodeMirror's own `Text`, never copied to a string here (a key in 1 MiB would copy 1 MiB). */
  onEdit: (text: Text, changes: ChangeSet) => void;
  /** The view is going: what was typed last is kept now. */
  keepNow: () => void;
}

export interface CodeMirrorHandle {
  /** The view once created (effects that need it depend on it). */
  view: EditorView | null;
  text(): string;
  /** Puts `text` in the buffer as one edit of its own (Ctrl+Z undoes just it); only what differs changes, so the cursor keeps its place. */
  replace(text: string): void;
  showDiff(original: string | null): void;
  /** Checks the text now, changed or not (forceLinting alone does nothing once the text has been checked). */
  relint(): void;
  clearAgentMarks(): void;
  focus(): void;
  openSearch(): void;
  /** Puts the cursor at a 1-based line and column, in view, and focuses the text. */
  goTo(line: number, column: number): void;
}

export function useCodeMirror(host: RefObject<HTMLDivElement | null>, { path, initial, writable, readOnlyWhy, check, onOpen, onEdit, keepNow }: Options): CodeMirrorHandle {
  const [view, setView] = useState<EditorView | null>(null);
  const latest = useRef({ check, onOpen, onEdit, keepNow, writable, readOnlyWhy, initial, path });
  useEffect(() => {
    latest.current = { check, onOpen, onEdit, keepNow, writable, readOnlyWhy, initial, path };
  });

  // One view per open document (the page is keyed by it), made once its text has loaded: what it opens
  // with is read then, and a later `initial` never replaces what the operator has typed since.
  const loaded = initial !== null;
  useEffect(() => {
    const { initial: text, path: opened } = latest.current;
    if (text === null || !host.current) return;
    const checker = new BufferChecker(text);
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: editorExtensions({
          length: text.length,
          writable: latest.current.writable,
          readOnlyWhy: latest.current.readOnlyWhy,
          check: (doc) => latest.current.check(doc, checker),
          onChange: (changes) => {
            if (changes) {
              checker.edit(changes);
              latest.current.onEdit(created.state.doc, changes);
            }
            editorChanged();
          },
        }),
      }),
    });
    setView(created);
    latest.current.onOpen(created.state.doc);
    // Leaving the text (for Sign out, a link, another window) keeps what was typed in the last moment too.
    const keepOnBlur = () => latest.current.keepNow();
    created.contentDOM.addEventListener('blur', keepOnBlur);
    const unregister = registerEditor({
      snapshot: () => snapshotOf(opened, created.state),
      applyAgentText: (base, theirs) => {
        const changes = agentChangesOver(base, theirs, created.state.doc.toString());
        if (changes.empty) return;
        const after = changes.apply(created.state.doc);
        created.dispatch({ changes, effects: agentLinesOf(changes, after), userEvent: 'input.agent' });
      },
    });
    return () => {
      unregister();
      created.contentDOM.removeEventListener('blur', keepOnBlur);
      latest.current.keepNow();
      created.destroy();
      checker.close();
      setView(null);
    };
  }, [host, loaded]);

  useEffect(() => {
    view?.dispatch({ effects: accessCompartment.reconfigure(access(writable, readOnlyWhy)) });
  }, [view, writable, readOnlyWhy]);

  return useMemo(
    () => ({
      view,
      text: () => view?.state.doc.toString() ?? '',
      replace: (text) => view?.dispatch({ changes: changesBetween(view.state.doc.toString(), text), annotations: isolateHistory.of('full') }),
      showDiff: (original) => view?.dispatch({ effects: diffCompartment.reconfigure(diffAgainst(original)) }),
      relint: () => {
        if (!view) return;
        view.dispatch({ effects: recheck.of(null) });
        forceLinting(view);
      },
      clearAgentMarks: () => view?.dispatch({ effects: clearAgentLines.of(null) }),
      focus: () => view?.focus(),
      openSearch: () => {
        if (view) openSearchPanel(view);
      },
      goTo: (line, column) => {
        if (!view) return;
        const at = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
        view.dispatch({ selection: EditorSelection.cursor(Math.min(at.from + Math.max(column, 1) - 1, at.to)), scrollIntoView: true });
        view.focus();
      },
    }),
    [view],
  );
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
