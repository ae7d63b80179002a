import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/documents/index.js';
import { inDocumentOrder } from '../../src/documents/diagnostics.js';

describe('LineIndex', () => {
  it('gives 1-based lines and columns', () => {
    const lines = new LineIndex('ab\ncd\n');
    expect([0, 1, 2, 3, 5, 6].map((offset) => lines.position(offset))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 2 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 2, column: 3 },
      { line: 3, column: 1 },
    ]);
  });

  it('ends CRLF lines at the \\n: the \\r is the last column of its line', () => {
    const lines = new LineIndex('a: 1\r\nb: 2\r\n');
    expect(lines.position(4)).toEqual({ line: 1, column: 5 });
    expect(lines.position(6)).toEqual({ line: 2, column: 1 });
    expect(lines.position(9)).toEqual({ line: 2, column: 4 });
  });

  it('counts columns in UTF-16 code units', () => {
    const text = 'x: 😀é日 $\n';
    const lines = new LineIndex(text);
    expect(lines.position(text.indexOf('$'))).toEqual({ line: 1, column: 9 });
  });

  it('clamps offsets into the text', () => {
    const lines = new LineIndex('ab\nc');
    expect(lines.position(-5)).toEqual({ line: 1, column: 1 });
    expect(lines.position(99)).toEqual({ line: 2, column: 2 });
    expect(new LineIndex('').position(0)).toEqual({ line: 1, column: 1 });
  });

  it('makes diagnostics', () => {
    expect(new LineIndex('a\nb').diagnostic(2, 'here')).toEqual({ line: 2, column: 1, message: 'here' });
  });
});

describe('inDocumentOrder', () => {
  it('sorts by line then column, keeps ties in the order found and drops exact repeats', () => {
    const found = [
      { line: 2, column: 1, message: 'b' },
      { line: 1, column: 5, message: 'second' },
      { line: 1, column: 5, message: 'first?' },
      { line: 1, column: 2, message: 'a' },
      { line: 2, column: 1, message: 'b' },
    ];
    expect(inDocumentOrder(found)).toEqual([
      { line: 1, column: 2, message: 'a' },
      { line: 1, column: 5, message: 'second' },
      { line: 1, column: 5, message: 'first?' },
      { line: 2, column: 1, message: 'b' },
    ]);
  });
});
