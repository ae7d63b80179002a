import { scanReferences } from './references.js';

/** The names of the secrets a parsed document refers to, in its keys and string values. */
export function secretReferences(value: unknown): Set<string> {
  const names = new Set<string>();
  const collect = (text: string): void => {
    for (const token of scanReferences(text)) if (token.kind === 'secret') names.add(token.name);
  };
  const walk = (node: unknown): void => {
    if (typeof node === 'string') collect(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (isPlainObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        collect(key);
        walk(child);
      }
    }
  };
  walk(value);
  return names;
}

/**
 * A copy of a parsed document with every `${secret:NAME}` in its keys and
 * string values replaced by `lookup(NAME)` and every escape (`$${`) turned
 * into what it stands for. A reference whose secret `lookup` does not know,
 * and a malformed one, stay as written: checking the document first
 * reports both.
 */
export function resolveSecrets(value: unknown, lookup: (name: string) => string | undefined): unknown {
  const resolve = (node: unknown): unknown => {
    if (typeof node === 'string') return resolveString(node, lookup);
    if (Array.isArray(node)) return node.map(resolve);
    if (!isPlainObject(node)) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      // defineProperty, so that a key named "__proto__" stays a key.
      Object.defineProperty(copy, resolveString(key, lookup), {
        value: resolve(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };
  return resolve(value);
}

function resolveString(text: string, lookup: (name: string) => string | undefined): string {
  const tokens = scanReferences(text);
  if (tokens.length === 0) return text;
  let resolved = '';
  let cursor = 0;
  for (const token of tokens) {
    resolved += text.slice(cursor, token.start);
    if (token.kind === 'escape') resolved += token.literal;
    else if (token.kind === 'secret') resolved += lookup(token.name) ?? text.slice(token.start, token.end);
    else resolved += text.slice(token.start, token.end);
    cursor = token.end;
  }
  return resolved + text.slice(cursor);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
