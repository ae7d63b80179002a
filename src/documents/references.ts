/**
 * The reference syntax inside a document's strings, in one place for the
 * checker and the resolver.
 *
 * `${secret:NAME}` refers to a secret. In a run of "$" just before "{", each
 * pair "$$" stands for one literal "$", and a last odd "$" opens a reference:
 * `$${` is a literal `${`, `$$${secret:A}` is "$" followed by secret A.
 * A "$" not followed by "{" is always literal, so "pa$$word" stays as written.
 */

const SECRET_NAME = /^[A-Z_][A-Z0-9_]*$/;
const MAX_SECRET_NAME_LENGTH = 128;
const SECRET_PREFIX = 'secret:';
const MAX_SHOWN_LENGTH = 40;

/** Whether `name` is a valid secret name: `[A-Z_][A-Z0-9_]*`, at most 128 characters. */
export function isSecretName(name: string): boolean {
  return name.length <= MAX_SECRET_NAME_LENGTH && SECRET_NAME.test(name);
}

/** A special stretch of a string, from `start` up to (not including) `end`. */
export type ReferenceToken =
  /** "$" pairs (and the "{" after an even run), standing for `literal`. */
  | { kind: 'escape'; start: number; end: number; literal: string }
  | { kind: 'secret'; start: number; end: number; name: string }
  /** Starts with `${` but is no valid reference; `problem` says why, as a diagnostic message. */
  | { kind: 'malformed'; start: number; end: number; problem: string };

/** The special stretches of `value`, in order. */
export function scanReferences(value: string): ReferenceToken[] {
  const tokens: ReferenceToken[] = [];
  if (!value.includes('${')) return tokens;
  const dollarRuns = /\$+\{/g;
  for (let run = dollarRuns.exec(value); run !== null; run = dollarRuns.exec(value)) {
    const dollars = run[0].length - 1;
    const pairs = dollars >> 1;
    const start = run.index;
    if (dollars % 2 === 0) {
      tokens.push({ kind: 'escape', start, end: start + dollars + 1, literal: `${'$'.repeat(pairs)}{` });
      continue;
    }
    if (pairs > 0) tokens.push({ kind: 'escape', start, end: start + 2 * pairs, literal: '$'.repeat(pairs) });
    const open = start + 2 * pairs;
    const close = value.indexOf('}', open + 2);
    if (close === -1) {
      tokens.push({ kind: 'malformed', start: open, end: value.length, problem: unclosed(value.slice(open)) });
      break;
    }
    tokens.push(reference(value.slice(open, close + 1), open));
    dollarRuns.lastIndex = close + 1;
  }
  return tokens;
}

function reference(text: string, start: number): ReferenceToken {
  const end = start + text.length;
  const body = text.slice(2, -1);
  if (!body.startsWith(SECRET_PREFIX)) {
    return {
      kind: 'malformed',
      start,
      end,
      problem: `${shown(text)} is not a secret reference; write \${secret:NAME}, or $\${ for a literal \${`,
    };
  }
  const name = body.slice(SECRET_PREFIX.length);
  if (isSecretName(name)) return { kind: 'secret', start, end, name };
  return {
    kind: 'malformed',
    start,
    end,
    problem:
      `${shown(text)} does not name a valid secret; a secret name is capital letters, digits and _, ` +
      `not starting with a digit, at most ${MAX_SECRET_NAME_LENGTH} characters`,
  };
}

function unclosed(rest: string): string {
  return `${shown(rest)} is not closed; end the reference with "}", or write $\${ for a literal \${`;
}

/** The reference as the message quotes it: up to the first line break, at most 40 characters. */
function shown(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const cut = firstLine.length > MAX_SHOWN_LENGTH ? firstLine.slice(0, MAX_SHOWN_LENGTH) : firstLine;
  return `"${cut}${cut.length < text.length ? '…' : ''}"`;
}
