// YAML in a large text (web/src/editor/largeYaml): each line's tokens as
// Lezer's YAML colours them (keys, quoted strings, comments, anchors, tags,
// block scalar headers, with the block's lines left plain), and folds by
// indentation, bounded; the editor swaps Lezer's YAML for it above 128 KiB
// and back below three quarters of that.
import { language } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { tags } from '@lezer/highlight';
import { describe, expect, it } from 'vitest';
import { indentFold, LARGE_TEXT, yamlBySize, yamlLineTokens } from '../../web/src/editor/largeYaml.js';

/** Each token as [its text, its tag's name]. */
function tokensOf(lines: string[]): [string, string][][] {
  const state = { blockIndent: -1 };
  return lines.map((line) =>
    yamlLineTokens(line, state).map((token) => {
      const tag = token.tag === tags.definition(tags.propertyName) ? 'key' : token.tag === tags.special(tags.string) ? 'block' : token.tag === tags.string ? 'string' : token.tag === tags.lineComment ? 'comment' : token.tag === tags.labelName ? 'anchor' : token.tag === tags.typeName ? 'tag' : token.tag === tags.meta ? 'meta' : '?';
      return [line.slice(token.from, token.to), tag];
    }),
  );
}

describe('large YAML, line by line', () => {
  it('colours keys, quoted strings, comments, anchors and tags, and leaves plain values plain', () => {
    expect(
      tokensOf([
        '---',
        'services: # all of them',
        '  - name: "shop, \\"main\\"" # quoted',
        "    url: 'http://a:b' ",
        '    base: &base !!map',
        '    copy: *base',
        '    port: 8080',
        '    "quoted key": x # y',
        '    time: 12:30',
      ]),
    ).toEqual([
      [['---', 'meta']],
      [['services', 'key'], ['# all of them', 'comment']],
      [['name', 'key'], ['"shop, \\"main\\""', 'string'], ['# quoted', 'comment']],
      [['url', 'key'], ["'http://a:b'", 'string']],
      [['base', 'key'], ['&base', 'anchor'], ['!!map', 'tag']],
      [['copy', 'key'], ['*base', 'anchor']],
      [['port', 'key']],
      [['"quoted key"', 'key'], ['# y', 'comment']],
      [['time', 'key']],
    ]);
  });

  it('leaves a block scalar’s lines plain until the indentation comes back', () => {
    expect(tokensOf(['script: |-', '  run: this # not a comment', '', '  "not a string"', 'next: 1'])).toEqual([
      [['script', 'key'], ['|-', 'block']],
      [],
      [],
      [],
      [['next', 'key']],
    ]);
  });
});

describe('large YAML, folding', () => {
  const doc = ['a:', '  b: 1', '', '  # note', '  c:', '    d: 2', 'e: 3'].join('\n');
  const state = EditorState.create({ doc });
  const fold = (lineNumber: number) => {
    const line = state.doc.line(lineNumber);
    const range = indentFold(state, line.from, line.to);
    return range && state.sliceDoc(range.from, range.to);
  };

  it('folds the more deeply indented lines after a line, blank lines and comments inside included', () => {
    expect(fold(1)).toBe('\n  b: 1\n\n  # note\n  c:\n    d: 2');
    expect(fold(5)).toBe('\n    d: 2');
    expect(fold(2)).toBeNull();
    expect(fold(7)).toBeNull();
  });

  it('does not fold a block of more than 2,000 lines (the fold gutter asks on every key)', () => {
    const lines = (n: number) => ['top:', ...Array.from({ length: n }, (_, i) => `  k${i}: ${i}`), 'end: 1'].join('\n');
    const at = (text: string) => indentFold(EditorState.create({ doc: text }), 0, 4);
    expect(at(lines(2000))?.to).toBe(lines(2000).lastIndexOf('\nend'));
    expect(at(lines(2001))).toBeNull();
  });
});

describe('which YAML the editor runs', () => {
  it('parses with Lezer up to 128 KiB, by the lines in view above it, and again under three quarters of it', () => {
    const open = (text: string) => EditorState.create({ doc: text, extensions: yamlBySize(text.length) });
    const parsed = (state: EditorState) => state.facet(language)?.name ?? null;
    const grow = (state: EditorState, to: number) => state.update({ changes: { from: state.doc.length, insert: 'x'.repeat(to - state.doc.length) } }).state;
    const shrink = (state: EditorState, to: number) => state.update({ changes: { from: to, to: state.doc.length } }).state;

    expect(parsed(open('a: 1\n'))).toBe('yaml');
    expect(parsed(open('x'.repeat(LARGE_TEXT + 1)))).toBeNull();
    const small = open('a: 1\n');
    const large = grow(grow(small, LARGE_TEXT), LARGE_TEXT + 1);
    expect(parsed(grow(small, LARGE_TEXT))).toBe('yaml');
    expect(parsed(large)).toBeNull();
    const between = shrink(large, (LARGE_TEXT * 3) / 4);
    expect(parsed(between)).toBeNull();
    expect(parsed(shrink(between, (LARGE_TEXT * 3) / 4 - 1))).toBe('yaml');
  });
});
