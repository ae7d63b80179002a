// The editor's CodeMirror extensions: YAML, line numbers, history, search
// (Ctrl+F), folding, bracket matching, the checker's diagnostics as lint
// marks, the lines an agent changed, and compartments for the diff against
// the saved or live text and for read-only. A large text gets YAML by the
// lines in view instead of Lezer's parse from the top (largeYaml.ts).
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic as LintMark } from '@codemirror/lint';
import { unifiedMergeView } from '@codemirror/merge';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, StateEffect, StateField, type ChangeSet, type Extension, type Text } from '@codemirror/state';
import { Decoration, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { Diagnostic } from '../../../src/wire/diagnostic';
import { yamlBySize } from './largeYaml';

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
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--bracket-match)', outline: '1px solid var(--border)' },
  '.cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'var(--removed-bg)', color: 'var(--danger)' },
  '.cm-searchMatch': { backgroundColor: 'var(--search-match)', outline: '1px solid var(--border)' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'var(--selection)' },
  '.cm-selectionMatch': { backgroundColor: 'var(--active-line)' },
  '.cm-foldGutter .cm-gutterElement': { padding: '0 4px', cursor: 'pointer' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--surface-2)', border: '1px solid var(--border)', color: 'var(--muted)', padding: '0 4px' },
  // The search panel, on top: the page's own fields and buttons, dense.
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--text)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panel.cm-search': { padding: '6px 36px 6px 10px', fontSize: '12px', display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '4px 8px' },
  '.cm-panel.cm-search br': { display: 'none' },
  '.cm-panel.cm-search label': { display: 'inline-flex', alignItems: 'center', gap: '3px', fontSize: '12px' },
  '.cm-panel.cm-search [name=close]': { top: '6px', right: '8px', fontSize: '16px', color: 'var(--muted)', minHeight: '0' },
  '.cm-textfield': { margin: '0', minHeight: '26px', padding: '2px 6px', fontSize: '12px', border: '1px solid var(--border)', borderRadius: '6px', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-button': { margin: '0', minHeight: '26px', padding: '2px 8px', fontSize: '12px', backgroundImage: 'none', backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)', borderRadius: '6px' },
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

/** Check the text again though it has not changed (another environment): the linter runs only after a change, or this. */
export const recheck = StateEffect.define<null>();

export const diffCompartment = new Compartment();
export const accessCompartment = new Compartment();

/**
 * Whether the text may change; read-only keeps it focusable, selectable and
 * searchable. `why`: the id of the sentence saying why, once it is shown.
 */
export function access(writable: boolean, why: string | null): Extension {
  return [EditorState.readOnly.of(!writable), writable || !why ? [] : EditorView.contentAttributes.of({ 'aria-describedby': why })];
}

export function diffAgainst(original: string | null): Extension {
  return original === null ? [] : unifiedMergeView({ original, mergeControls: false, highlightChanges: false, gutter: true });
}

export interface SetupOptions {
  /** The length of the text the view opens with (which YAML support it starts with). */
  length: number;
  writable: boolean;
  /** The id of the sentence saying why the text is read-only, once shown. */
  readOnlyWhy: string | null;
  /** Checks the view's text as it is now. */
  check: (text: Text) => Promise<Diagnostic[]>;
  /** The text or the selection changed; `changes` when the text did. */
  onChange: (changes: ChangeSet | null) => void;
}

export function editorExtensions({ length, writable, readOnlyWhy, check, onChange }: SetupOptions): Extension[] {
  return [
    lineNumbers(),
    foldGutter(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    search({ top: true }),
    highlightSelectionMatches(),
    bracketMatching(),
    keymap.of([...searchKeymap, ...foldKeymap, ...defaultKeymap, ...historyKeymap]),
    accessCompartment.of(access(writable, readOnlyWhy)),
    yamlBySize(length),
    syntaxHighlighting(highlight),
    lintGutter(),
    linter(async (view) => lintMarks(view.state.doc, await check(view.state.doc)), {
      delay: 400,
      needsRefresh: (update) => update.transactions.some((transaction) => transaction.effects.some((effect) => effect.is(recheck))),
    }),
    agentLines,
    diffCompartment.of([]),
    theme,
    EditorView.contentAttributes.of({ 'aria-label': 'Document text' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged || update.selectionSet) onChange(update.docChanged ? update.changes : null);
    }),
  ];
}
