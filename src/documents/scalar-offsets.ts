import type { Scalar } from 'yaml';

const ESCAPE_LENGTHS: Readonly<Record<string, number>> = { x: 4, u: 6, U: 10 };

/**
 * For each character of a string scalar's value, its offset in `text` — when
 * the scalar is plain or quoted and on one line, where the value maps back to
 * the source character by character. Null otherwise (block scalars, folded
 * lines), and whenever the mapping does not add up.
 */
export function valueOffsets(text: string, scalar: Scalar): number[] | null {
  const { value, range } = scalar;
  if (typeof value !== 'string' || !range) return null;
  const start = range[0];
  const source = text.slice(start, range[1]);
  if (source.includes('\n')) return null;
  let offsets: number[];
  switch (scalar.type) {
    case 'PLAIN':
      offsets = source === value ? Array.from({ length: source.length }, (_, index) => start + index) : [];
      break;
    case 'QUOTE_SINGLE':
      offsets = singleQuotedOffsets(source, start);
      break;
    case 'QUOTE_DOUBLE':
      offsets = doubleQuotedOffsets(source, start);
      break;
    default:
      return null;
  }
  return offsets.length === value.length ? offsets : null;
}

/** Inside '…', "''" is one "'". */
function singleQuotedOffsets(source: string, start: number): number[] {
  const offsets: number[] = [];
  for (let at = 1; at < source.length - 1; at += source[at] === "'" ? 2 : 1) offsets.push(start + at);
  return offsets;
}

/** Inside "…", an escape (\n, \x41, \u0041, \U0001F600 …) stands for one or two UTF-16 units. */
function doubleQuotedOffsets(source: string, start: number): number[] {
  const offsets: number[] = [];
  let at = 1;
  while (at < source.length - 1) {
    if (source[at] !== '\\') {
      offsets.push(start + at);
      at += 1;
      continue;
    }
    const letter = source[at + 1] ?? '';
    const length = ESCAPE_LENGTHS[letter] ?? 2;
    const units = letter === 'U' && Number.parseInt(source.slice(at + 2, at + 10), 16) > 0xffff ? 2 : 1;
    for (let unit = 0; unit < units; unit += 1) offsets.push(start + at);
    at += length;
  }
  return offsets;
}
