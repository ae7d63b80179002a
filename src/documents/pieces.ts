interface Piece {
  text: string;
  /** Offset of `text` in the original; -1 for inserted text. */
  origin: number;
}

/**
 * A text under edit, held as pieces of the original and inserted strings,
 * so that an edit copies nothing and a search never flattens the whole text
 * (V8 copies a concatenated string in full the first time it is searched).
 * Pieces are never empty.
 */
export class PieceText {
  private pieces: Piece[];
  /** Where each piece starts in the current text. */
  private starts: number[] = [];
  private length = 0;

  constructor(original: string) {
    this.pieces = original === '' ? [] : [{ text: original, origin: 0 }];
    this.measure(0);
  }

  /**
   * Where `pattern` occurs now, up to `limit` places (unordered), given
   * `original`: where it occurs in the original text, ascending. A place is
   * either inside one surviving piece of the original (taken from
   * `original`), inside inserted text, or across a seam between pieces.
   */
  find(pattern: string, original: readonly number[], limit: number): number[] {
    const found: number[] = [];
    const add = (at: number): boolean => {
      if (!found.includes(at)) found.push(at);
      return found.length >= limit;
    };
    let index = 0;
    for (const at of original) {
      while (index < this.pieces.length && this.endOfOrigin(index) <= at) index += 1;
      const piece = this.pieces[index];
      if (!piece || piece.origin === -1 || piece.origin > at) continue;
      if (at + pattern.length <= this.endOfOrigin(index) && add(this.startOf(index) + at - piece.origin)) return found;
    }
    for (const [index, piece] of this.pieces.entries()) {
      if (piece.origin !== -1) continue;
      for (let at = piece.text.indexOf(pattern); at !== -1; at = piece.text.indexOf(pattern, at + 1)) {
        if (add(this.startOf(index) + at)) return found;
      }
    }
    for (let index = 1; index < this.pieces.length; index += 1) {
      const seam = this.startOf(index);
      const from = Math.max(0, seam - pattern.length + 1);
      const window = this.slice(from, Math.min(this.length, seam + pattern.length - 1));
      for (let at = window.indexOf(pattern); at !== -1 && from + at < seam; at = window.indexOf(pattern, at + 1)) {
        if (add(from + at)) return found;
      }
    }
    return found;
  }

  /** How many UTF-16 code units the current text holds. */
  get size(): number {
    return this.length;
  }

  /** Replaces `length` characters at `at` (within the text) by `replacement`. */
  replace(at: number, length: number, replacement: string): void {
    if (this.pieces.length === 0) {
      if (at !== 0 || length !== 0) throw new RangeError('replace outside the text');
      if (replacement !== '') this.pieces.push({ text: replacement, origin: -1 });
      return this.measure(0);
    }
    const first = this.pieceAt(at);
    const last = this.pieceAt(at + length - 1);
    const before = this.pieces[first];
    const after = this.pieces[last];
    if (!before || !after) throw new RangeError('replace outside the text');
    const keptBefore = at - this.startOf(first);
    const cutAfter = at + length - this.startOf(last);
    const replacing: Piece[] = [
      { text: before.text.slice(0, keptBefore), origin: before.origin },
      { text: replacement, origin: -1 },
      { text: after.text.slice(cutAfter), origin: after.origin === -1 ? -1 : after.origin + cutAfter },
    ];
    this.pieces.splice(first, last - first + 1, ...replacing.filter((piece) => piece.text !== ''));
    this.measure(first);
  }

  toString(): string {
    return this.pieces.map((piece) => piece.text).join('');
  }

  /** The current text from `from` to `to`, from the pieces that hold it. */
  private slice(from: number, to: number): string {
    let text = '';
    for (let index = this.pieceAt(from); index < this.pieces.length && this.startOf(index) < to; index += 1) {
      const start = this.startOf(index);
      text += this.pieces[index]?.text.slice(Math.max(0, from - start), to - start) ?? '';
    }
    return text;
  }

  /** The index of the piece holding offset `at` (binary search). */
  private pieceAt(at: number): number {
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.startOf(middle) <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private startOf(index: number): number {
    return this.starts[index] ?? this.length;
  }

  /** Where piece `index` ends in the original; for inserted text, -1, so that the scan above passes over it. */
  private endOfOrigin(index: number): number {
    const piece = this.pieces[index];
    if (!piece) return Infinity;
    return piece.origin === -1 ? -1 : piece.origin + piece.text.length;
  }

  /** Recomputes the starts of the pieces from `index` on. */
  private measure(index: number): void {
    this.starts.length = this.pieces.length;
    let start = index === 0 ? 0 : this.startOf(index - 1) + (this.pieces[index - 1]?.text.length ?? 0);
    for (let at = index; at < this.pieces.length; at += 1) {
      this.starts[at] = start;
      start += this.pieces[at]?.text.length ?? 0;
    }
    this.length = start;
  }
}
