// The editor's CodeMirror extensions: YAML, line numbers, history, the
// checker's diagnostics as lint marks, the lines an agent changed, and a
// compartment for the diff against the saved or live text.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic as LintMark } from '@codemirror/lint';
import { unifiedMergeView } from '@codemirror/merge';
import { Compartment, StateEffect, StateField, type ChangeSet, type Extension, type Text } from '@codemirror/state';
import { Decoration, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { Diagnostic } from '../api/types';

/** Colours come from the page's CSS variables, so light and dark both read well. */
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--syntax-key)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syntax-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syntax-literal)' },
  { tag: [tags.comment, tags.lineComment], color: 'var(--syntax-comment)', fontStyle: 'italic' },
  { tag: [tags.meta, tags.keyword, tags.typeName, tags.labelName], color: 'var(--syntax-meta)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-agent-line': { backgroundColor: 'var(--agent-line)' },
  '.cm-deletedChunk': { backgroundColor: 'var(--removed-bg)' },
  '.cm-changedLine': { backgroundColor: 'var(--added-bg) !important' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
});

const markAgentLines = StateEffect.define<number[]>();
const agentLine = Decoration.line({ class: 'cm-agent-line' });

/** The lines the agent changed last, highlighted until the operator saves. */
const agentLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(lines, transaction) {
    let next = lines.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(markAgentLines)) {
        next = Decoration.set(effect.value.map((pos) => agentLine.range(pos)), true);
      }
      if (effect.is(clearAgentLines)) next = Decoration.none;
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export const clearAgentLines = StateEffect.define<null>();

/** The effect that highlights the lines an agent's change set touched (in the document after it). */
export function agentLinesOf(changes: ChangeSet, doc: Text): StateEffect<number[]> {
  const starts = new Set<number>();
  changes.iterChangedRanges((_fromA, _toA, fromB, toB) => {
    for (let pos = fromB; pos <= toB; ) {
      const line = doc.lineAt(Math.min(pos, doc.length));
      starts.add(line.from);
      if (line.to >= toB || line.to >= doc.length) break;
      pos = line.to + 1;
    }
  });
  return markAgentLines.of([...starts].sort((a, b) => a - b));
}

/** Diagnostics (1-based line and column) as lint marks over the token they point at. */
export function lintMarks(doc: Text, diagnostics: Diagnostic[]): LintMark[] {
  return diagnostics.map((d) => {
    const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(d.column, 1) - 1, line.to);
    const token = /^\S+/.exec(doc.sliceString(from, line.to))?.[0].length ?? 0;
    return { from, to: from + token, severity: 'error', message: d.message };
  });
}

export const diffCompartment = new Compartment();

export function diffAgainst(original: string | null): Extension {
  return original === null ? [] : unifiedMergeView({ original, mergeControls: false, highlightChanges: false, gutter: true });
}

export interface SetupOptions {
  check: (text: string) => Promise<Diagnostic[]>;
  onChange: (docChanged: boolean) => void;
}

export function editorExtensions({ check, onChange }: SetupOptions): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    yaml(),
    syntaxHighlighting(highlight),
    lintGutter(),
    linter(async (view) => lintMarks(view.state.doc, await check(view.state.doc.toString())), { delay: 400 }),
    agentLines,
    diffCompartment.of([]),
    theme,
    EditorView.contentAttributes.of({ 'aria-label': 'Document text' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged || update.selectionSet) onChange(update.docChanged);
    }),
  ];
}
