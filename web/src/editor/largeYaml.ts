// YAML in a large document: highlighted line by line for the lines in view,
// folded by indentation. Lezer's YAML parser must parse from the top to
// colour the lines in view, so at the end of 1 MiB every key paid its 20 ms
// parse budget (and idle slices of up to 45 ms sat between keys) until the
// whole text was parsed: seconds on a loaded machine. Here a key costs the
// lines in view, whatever the document's size. What a line alone cannot tell
// (a block scalar that starts far above the view, a flow collection over
// several lines) may be coloured as plain YAML: display only. A smaller text
// keeps Lezer's YAML; an edit across the size swaps them.
import { yaml } from '@codemirror/lang-yaml';
import { foldService, highlightingFor } from '@codemirror/language';
import { Compartment, EditorState, type Extension, type Text } from '@codemirror/state';
import { Decoration, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from '@codemirror/view';
import { tags, type Tag } from '@lezer/highlight';

/** How many lines above the view are read for a block scalar (`key: |`) the view starts inside. */
const LOOK_BACK_LINES = 200;

const QUOTED_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(?=\s|$)/;
const PLAIN_KEY = /^([^\s#"'{[\]|>&*!%@`,][^#]*?)\s*:(?=\s|$)/;
const BLOCK_HEADER = /^[|>][-+0-9]*(?=\s*(#|$))/;
const DOCUMENT_MARK = /^(---|\.\.\.)(?=\s|$)/;
// Made once: a modified tag is looked up each time it is made.
const KEY = tags.definition(tags.propertyName);
const BLOCK_SCALAR = tags.special(tags.string);

interface Token {
  from: number;
  to: number;
  tag: Tag;
}

/** Where a block scalar's lines are: deeper than `indent` (the line of its header); -1 when outside one. */
interface LineState {
  blockIndent: number;
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** The tokens of one line (offsets in the line), and the state for the next. */
export function yamlLineTokens(line: string, state: LineState): Token[] {
  const indent = indentOf(line);
  if (state.blockIndent >= 0) {
    if (indent === line.length || indent > state.blockIndent) return [];
    state.blockIndent = -1;
  }
  const tokens: Token[] = [];
  const mark = DOCUMENT_MARK.exec(line);
  let pos = indent;
  if (mark) {
    tokens.push({ from: 0, to: 3, tag: tags.meta });
    pos = 3;
  }
  // Sequence dashes ("- - key: value").
  while (line[pos] === '-' && (pos + 1 === line.length || line[pos + 1] === ' ')) {
    pos++;
    while (line[pos] === ' ') pos++;
  }
  const rest = line.slice(pos);
  const key = QUOTED_KEY.exec(rest) ?? PLAIN_KEY.exec(rest);
  if (key?.[1]) {
    tokens.push({ from: pos, to: pos + key[1].length, tag: KEY });
    pos += key[0].length + 1;
  }
  while (pos < line.length) {
    const c = line[pos];
    if (c === ' ' || c === '\t') {
      pos++;
    } else if (c === '#') {
      tokens.push({ from: pos, to: line.length, tag: tags.lineComment });
      break;
    } else if (c === '"' || c === "'") {
      const end = closingQuote(line, pos);
      tokens.push({ from: pos, to: end, tag: tags.string });
      pos = end;
    } else if (c === '&' || c === '*' || c === '!') {
      const end = wordEnd(line, pos);
      tokens.push({ from: pos, to: end, tag: c === '!' ? tags.typeName : tags.labelName });
      pos = end;
    } else {
      const header = c === '|' || c === '>' ? BLOCK_HEADER.exec(line.slice(pos)) : null;
      if (header) {
        tokens.push({ from: pos, to: pos + header[0].length, tag: BLOCK_SCALAR });
        state.blockIndent = indent;
        pos += header[0].length;
      } else {
        // A plain scalar (unstyled, as Lezer's YAML leaves it): up to a comment.
        const comment = line.indexOf(' #', pos);
        pos = comment < 0 ? line.length : comment + 1;
      }
    }
  }
  return tokens;
}

function closingQuote(line: string, from: number): number {
  const quote = line[from];
  for (let i = from + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return line.length;
}

function wordEnd(line: string, from: number): number {
  let i = from + 1;
  while (i < line.length && line[i] !== ' ' && line[i] !== ',' && line[i] !== ']' && line[i] !== '}') i++;
  return i;
}

function decorationsOf(view: EditorView): DecorationSet {
  const { state } = view;
  const { doc } = state;
  const classes = new Map<Tag, Decoration | null>();
  const markOf = (tag: Tag) => {
    if (!classes.has(tag)) {
      const cls = highlightingFor(state, [tag]);
      classes.set(tag, cls ? Decoration.mark({ class: cls }) : null);
    }
    return classes.get(tag) ?? null;
  };
  const marks = [];
  let scannedTo = 0;
  for (const { from, to } of view.visibleRanges) {
    const first = doc.lineAt(from).number;
    const last = doc.lineAt(to).number;
    const lineState = { blockIndent: -1 };
    // A few lines above, for a block scalar the range starts inside (not again after the last range's end).
    const start = Math.max(first - LOOK_BACK_LINES, scannedTo + 1, 1);
    // The text's own iterator: no line lookup per line.
    let n = start;
    let pos = doc.line(start).from;
    for (const lines = doc.iterLines(start, last + 1); !lines.next().done; n++, pos += lines.value.length + 1) {
      const tokens = yamlLineTokens(lines.value, lineState);
      if (n < first) continue;
      for (const token of tokens) {
        const mark = markOf(token.tag);
        if (mark && token.to > token.from) marks.push(mark.range(pos + token.from, pos + token.to));
      }
    }
    scannedTo = last;
  }
  return Decoration.set(marks, true);
}

const lineHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorationsOf(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged) this.decorations = decorationsOf(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/**
 * The most lines a fold covers here: the fold gutter asks about every line in
 * view on every key, and a line above a block of 15,000 lines (a key near the
 * top, or text typed at column 0 in the middle) cost each key the whole scan.
 */
const MAX_FOLD_LINES = 2000;

/**
 * A line with more deeply indented lines after it folds them (blank lines and
 * comments inside go with them), when they are at most MAX_FOLD_LINES.
 */
export function indentFold(state: EditorState, lineStart: number, lineEnd: number): { from: number; to: number } | null {
  const doc: Text = state.doc;
  const line = doc.lineAt(lineStart);
  const indent = indentOf(line.text);
  if (indent === line.text.length || line.number === doc.lines) return null;
  let end = -1;
  let pos = line.to + 1;
  let count = 0;
  // The text's own iterator: no line lookup per line, so a block of thousands of lines costs a millisecond or so.
  for (const iter = doc.iterLines(line.number + 1); !iter.next().done; pos += iter.value.length + 1) {
    const text = iter.value;
    const depth = indentOf(text);
    if (depth === text.length || text[depth] === '#') continue;
    if (depth <= indent) break;
    if (++count > MAX_FOLD_LINES) return null;
    end = pos + text.length;
  }
  return end < 0 ? null : { from: lineEnd, to: end };
}

const languageCompartment = new Compartment();

/**
 * Above this many characters the text is highlighted by the lines in view;
 * back under three quarters of it, by Lezer's YAML again (not at the same
 * size, so typing across the line does not swap them key by key).
 */
export const LARGE_TEXT = 128 * 1024;
const fullYaml = yaml();
const viewYaml: Extension = [lineHighlighter, foldService.of(indentFold)];

/** Swaps the YAML support when an edit takes the text across the size that decides it. */
const swapBySize = EditorState.transactionExtender.of((transaction) => {
  if (!transaction.docChanged) return null;
  const length = transaction.newDoc.length;
  const now = languageCompartment.get(transaction.startState);
  const next = now === viewYaml && length < (LARGE_TEXT * 3) / 4 ? fullYaml : now === fullYaml && length > LARGE_TEXT ? viewYaml : now;
  return next === now || next === undefined ? null : { effects: languageCompartment.reconfigure(next) };
});

/** YAML for a text that opens with `length` characters: Lezer's, or by the lines in view when large. */
export function yamlBySize(length: number): Extension {
  return [languageCompartment.of(length > LARGE_TEXT ? viewYaml : fullYaml), swapBySize];
}
