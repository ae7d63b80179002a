import { isAlias, isMap, isNode, isScalar, isSeq } from 'yaml';
import type { Document, Pair, YAMLMap } from 'yaml';
import type { Diagnostic, LineIndex } from './diagnostics.js';
import type { Violation } from './schema-violations.js';

export interface Location {
  /** Offset in the text to report at. */
  offset: number;
  /** The path the operator knows the node by, e.g. `server.ports[0]`; empty for the root. */
  where: string;
}

interface Step {
  node: unknown;
  /** The key the node is the value of; null for the root and for sequence items. */
  key: unknown;
  where: string;
}

const PLAIN_KEY = /^[\p{L}_][\p{L}\p{N}_-]*$/u;

/**
 * Finds the node a JSON pointer (Ajv's instancePath) names in the YAML
 * document — or, with `key`, that key of the mapping there. Walks through
 * aliases into what they refer to. An empty value (`port:` and nothing) is
 * reported at its key, where the operator will type. When the path leads
 * nowhere, the deepest node found stands in.
 */
export function locate(document: Document.Parsed, pointer: string, key: string | null): Location {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
  let step: Step = { node: document.contents, key: null, where: '' };
  let reached = true;
  for (const segment of segments) {
    const container = reached ? resolve(document, step.node) : null;
    const next = child(container, segment);
    reached = next !== null;
    step = { ...(next ?? step), where: describe(step.where, container, segment) };
  }
  const target = isEmpty(step.node) ? step.key : step.node;
  const offset = offsetOf(target) ?? offsetOf(step.key) ?? 0;
  if (key === null || !reached) return { offset, where: step.where };
  const pair = pairOf(resolve(document, step.node), key);
  return { offset: offsetOf(pair?.key) ?? offset, where: step.where };
}

/** Diagnostics for schema violations, at the nodes they are about. */
export function locateViolations(document: Document.Parsed, lines: LineIndex, found: readonly Violation[]): Diagnostic[] {
  return found.map((violation) => {
    const location = locate(document, violation.pointer, violation.key);
    return lines.diagnostic(location.offset, violation.describe(location.where));
  });
}

function child(node: unknown, segment: string): Omit<Step, 'where'> | null {
  const pair = pairOf(node, segment);
  if (pair) return { node: pair.value, key: pair.key };
  const items = isSeq(node) ? node.items : null;
  if (!items || !/^\d+$/.test(segment)) return null;
  const item: unknown = items[Number(segment)];
  return item === undefined ? null : { node: item, key: null };
}

/** Each mapping's pairs by key, built on first use: a large mapping may hold thousands of violations. */
const pairsByMapping = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairOf(node: unknown, key: string): Pair | null {
  if (!isMap(node)) return null;
  let pairs = pairsByMapping.get(node);
  if (!pairs) {
    pairs = new Map();
    for (const pair of node.items) if (isScalar(pair.key) && !pairs.has(String(pair.key.value))) pairs.set(String(pair.key.value), pair);
    pairsByMapping.set(node, pairs);
  }
  return pairs.get(key) ?? null;
}

function resolve(document: Document.Parsed, node: unknown): unknown {
  return isAlias(node) ? node.resolve(document) : node;
}

/** The path one segment deeper: `[0]` into a sequence, `.key` or `["odd key"]` into a mapping. */
function describe(where: string, parent: unknown, segment: string): string {
  if (isSeq(parent)) return `${where}[${segment}]`;
  if (!PLAIN_KEY.test(segment)) return `${where}[${JSON.stringify(segment)}]`;
  return where === '' ? segment : `${where}.${segment}`;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function offsetOf(node: unknown): number | null {
  return isNode(node) ? (node.range?.[0] ?? null) : null;
}

function isEmpty(node: unknown): boolean {
  return node === null || (isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1]);
}
