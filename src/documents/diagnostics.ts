import type { Diagnostic } from '../wire/diagnostic.js';

/** A problem in a document's text, where the operator reads it off the editor's gutter. */
export type { Diagnostic };

export interface Position {
  line: number;
  column: number;
}

/**
 * Turns offsets in one text into positions: one pass to find the line starts,
 * then a binary search per lookup. A line ends at "\n", as the yaml parser
 * counts lines; in "\r\n" the "\r" is the last character of its line, and a
 * lone "\r" is an ordinary character.
 */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      this.lineStarts.push(at + 1);
    }
  }

  /** The position of `offset`, clamped into the text. */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(Math.trunc(offset), this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lineStarts[middle] ?? 0) <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: clamped - (this.lineStarts[low] ?? 0) + 1 };
  }

  diagnostic(offset: number, message: string): Diagnostic {
    return { ...this.position(offset), message };
  }
}

/** Document order — by line, then column, ties kept in the order found — without exact repeats. */
export function inDocumentOrder(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return [...diagnostics]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .filter((diagnostic) => {
      const identity = `${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
      if (seen.has(identity)) return false;
      seen.add(identity);
      return true;
    });
}
