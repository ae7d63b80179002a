// What the store can hold. PostgreSQL's text and jsonb take no NUL character
// (U+0000), UTF-8 has no encoding for a lone surrogate, and our integer
// columns are 32-bit: a value outside that reaches the database only to fail
// there. The edge refuses such input (validation/ajv.ts); what must be stored
// whatever it holds (the audit log) is made storable instead.

export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

// NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Node 20 has it; TypeScript's ES2023 library does not declare it yet. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** Why the store cannot hold this text, as the end of a sentence; null when it can. */
export function unstorableReason(text: string): string | null {
  // Two native scans: a megabyte costs well under a millisecond.
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (!isWellFormed(text)) return 'must not contain a lone surrogate (invalid UTF-16)';
  return null;
}

/** The text with every character the store cannot hold replaced by U+FFFD, and how many there were. */
export function replaceUnstorable(text: string): { text: string; replaced: number } {
  if (unstorableReason(text) === null) return { text, replaced: 0 };
  let replaced = 0;
  const cleaned = text.replace(UNSTORABLE_ALL, () => {
    replaced += 1;
    return '\uFFFD';
  });
  return { text: cleaned, replaced };
}

export interface StorableLimits {
  /** Deeper values are replaced by a note. */
  depth: number;
  /** Longer strings are cut. */
  stringLength: number;
}

/**
 * A JSON value the store can hold, made from any value: characters it cannot
 * hold replaced by U+FFFD, strings cut, nesting cut. `changes` says what was
 * done, empty when nothing was.
 */
export function storableJson(value: unknown, limits: StorableLimits): { value: unknown; changes: string[] } {
  let replaced = 0;
  let cut = 0;
  let tooDeep = 0;
  const text = (raw: string): string => {
    const cleaned = replaceUnstorable(raw);
    replaced += cleaned.replaced;
    if (cleaned.text.length <= limits.stringLength) return cleaned.text;
    cut += 1;
    // Never between the halves of a surrogate pair: a lone half is what the store cannot hold (an emoji at the cut).
    const end = /[\ud800-\udbff]/.test(cleaned.text.charAt(limits.stringLength - 1)) ? limits.stringLength - 1 : limits.stringLength;
    return cleaned.text.slice(0, end);
  };
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return text(node);
    if (typeof node !== 'object' || node === null) return typeof node === 'number' && !Number.isFinite(node) ? null : node;
    if (depth >= limits.depth) {
      tooDeep += 1;
      return `[nested deeper than ${limits.depth} levels]`;
    }
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [text(key), walk(item, depth + 1)]));
  };
  const stored = walk(value ?? null, 0);
  const changes = [
    ...(replaced > 0 ? [`${replaced} NUL character(s) or lone surrogate(s) replaced by U+FFFD`] : []),
    ...(cut > 0 ? [`${cut} string(s) cut to ${limits.stringLength} characters`] : []),
    ...(tooDeep > 0 ? [`nesting cut at ${limits.depth} levels`] : []),
  ];
  return { value: stored, changes };
}
