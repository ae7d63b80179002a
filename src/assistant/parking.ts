// Secrets typed into a message are parked: replaced by `[secret:N]` before the
// message is stored or shown to a model, the value kept sealed for the thread.
// Only an accepted set_secret turns a placeholder back into its value.
import { CREDENTIALS } from './redaction.js';

const MARKED = /<secret>([\s\S]*?)<\/secret>/g;
const PLACEHOLDER = /\[secret:(\d+)\]/g;

export interface Parked {
  text: string;
  /** The values, numbered from `first`. */
  values: string[];
}

/** Replaces every secret in `text` by `[secret:N]`, numbering from `first`. */
export function parkSecrets(text: string, first: number): Parked {
  const values: string[] = [];
  const park = (value: string) => {
    values.push(value);
    return `[secret:${first + values.length - 1}]`;
  };
  let parked = text.replace(MARKED, (_match, value: string) => park(value));
  for (const pattern of CREDENTIALS) parked = parked.replace(pattern, (match) => park(match));
  return { text: parked, values };
}

/** A copy of `value` with each `[secret:N]` in its strings replaced by `lookup(N)` (unknown ones stay). */
export function unparkSecrets(value: unknown, lookup: (number: number) => string | undefined): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (match, n: string) => lookup(Number(n)) ?? match);
  if (Array.isArray(value)) return value.map((item) => unparkSecrets(item, lookup));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unparkSecrets(item, lookup)]));
  }
  return value;
}

/** The placeholder numbers a value refers to. */
export function placeholdersIn(value: unknown): number[] {
  const text = JSON.stringify(value) ?? '';
  return [...text.matchAll(PLACEHOLDER)].map((m) => Number(m[1]));
}
