import { isAlias, isCollection, isMap, isScalar, isSeq } from 'yaml';
import type { Document } from 'yaml';
import type { Diagnostic, LineIndex } from './diagnostics.js';
import { MAX_NESTING, TO_JS_OPTIONS } from './parse.js';
import { MAX_DOCUMENT_BYTES } from './syntax.js';

/** How far aliases may blow a document up: ten times the size limit, counting a node as 1 and a string by its length. */
const MAX_EXPANDED_SIZE = 10 * MAX_DOCUMENT_BYTES;

/** A node as its aliases expand it: its size, and how many levels of collections it holds. */
interface Expansion {
  size: number;
  height: number;
}

/**
 * The document's plain value, for schema validation — or why there is none:
 * an alias with no anchor before it, an alias inside the node it refers to
 * (an endless value), an alias that nests the value deeper than MAX_NESTING,
 * or aliases that expand it past ten times the size limit (an alias bomb,
 * which would exhaust whoever reads it as JSON). Each node is measured once,
 * and an alias's anchor comes before it, so the walk recurses only as deep as
 * the text nests.
 */
export function plainValue(document: Document.Parsed, lines: LineIndex): { value: unknown } | { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const measured = new Map<unknown, Expansion>();
  const open = new Set<unknown>();
  const nothing: Expansion = { size: 0, height: 0 };
  const expand = (node: unknown, depth: number): Expansion => {
    if (isAlias(node)) {
      const problem = (message: string): Expansion => {
        diagnostics.push(lines.diagnostic(node.range?.[0] ?? 0, message));
        return nothing;
      };
      const target = node.resolve(document);
      if (target === undefined) {
        return problem(`the alias *${node.source} refers to no anchor before it; define &${node.source} earlier or remove the alias`);
      }
      if (open.has(target)) {
        return problem(
          `the alias *${node.source} is inside the node it refers to, which makes the value endless; refer to something outside it`,
        );
      }
      const expansion = expand(target, depth);
      if (depth + expansion.height > MAX_NESTING) {
        return problem(`the alias *${node.source} nests the value deeper than ${MAX_NESTING} levels; use fewer levels of aliases`);
      }
      return expansion;
    }
    const known = measured.get(node);
    if (known) return known;
    open.add(node);
    const children = isMap(node) ? node.items.flatMap((pair) => [pair.key, pair.value]) : isSeq(node) ? node.items : [];
    const expansion = { size: 1, height: isCollection(node) ? 1 : 0 };
    if (isScalar(node) && typeof node.value === 'string') expansion.size += node.value.length;
    for (const child of children) {
      const { size, height } = expand(child, depth + 1);
      expansion.size += size;
      expansion.height = Math.max(expansion.height, height + 1);
    }
    open.delete(node);
    measured.set(node, expansion);
    return expansion;
  };
  const { size } = expand(document.contents, 0);
  if (diagnostics.length > 0) return { diagnostics };
  if (size > MAX_EXPANDED_SIZE) {
    const message = 'the aliases in this document expand it past 10 MiB; use fewer aliases or smaller anchored values';
    return { diagnostics: [lines.diagnostic(document.contents?.range?.[0] ?? 0, message)] };
  }
  return { value: document.toJS(TO_JS_OPTIONS) };
}
