import { Composer, Parser } from 'yaml';
import type { CST, Document, DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions } from 'yaml';

/**
 * How every document is read: YAML 1.2's core schema whatever a `%YAML`
 * directive says and with no YAML 1.1 tags (so the value is plain JSON: no
 * dates, sets, binaries or merge keys), keys as strings (JSON's keys are),
 * and no console output (problems become diagnostics). Duplicate keys are
 * found by the checker (syntax.ts): the yaml package's own check compares
 * each key with every earlier one, and took 16 s on a 1.4 MB mapping.
 */
const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  schema: 'core',
  merge: false,
  resolveKnownTags: false,
  stringKeys: true,
  uniqueKeys: false,
  prettyErrors: false,
  logLevel: 'silent',
};

/** Aliases are bounded by the checker (see value.ts), not by the yaml package's count of 100 uses. */
export const TO_JS_OPTIONS: ToJSOptions = { maxAliasCount: -1 };

/**
 * How deep collections may nest. The yaml package composes (and its visit,
 * toJS and Ajv validate) by recursion; a few thousand levels — a few KB of
 * "[" — overflow the stack, and can even abort the process when the overflow
 * strikes while V8 compiles a regular expression.
 */
export const MAX_NESTING = 200;

export type ParsedText = { documents: Document.Parsed[] } | { tooDeepAt: number };

/**
 * The YAML documents of `text` — or, when its collections nest deeper than
 * MAX_NESTING, the offset of one that does, found on the parser's token tree
 * before anything recurses into it.
 */
export function parseDocuments(text: string): ParsedText {
  const tokens = Array.from(new Parser().parse(text));
  const tooDeepAt = tooDeep(tokens);
  if (tooDeepAt !== null) return { tooDeepAt };
  return { documents: Array.from(new Composer(YAML_OPTIONS).compose(tokens)) };
}

/**
 * The plain JavaScript value of a document that checked clean (for serving
 * the live configuration as JSON). Throws when the text is not one valid
 * YAML document; check it first.
 */
export function parseDocument(text: string): unknown {
  const parsed = parseDocuments(text);
  if ('tooDeepAt' in parsed) throw new Error(`the document nests deeper than ${MAX_NESTING} levels`);
  const [document, ...others] = parsed.documents;
  if (!document || others.length > 0) throw new Error(`the text holds ${parsed.documents.length} YAML documents, not one`);
  const [error] = document.errors;
  if (error) throw new Error(`the document is not valid YAML: ${error.message}`);
  return document.toJS(TO_JS_OPTIONS);
}

/** The offset of a collection nested deeper than MAX_NESTING, walking the tokens without recursion; null when none is. */
function tooDeep(tokens: readonly CST.Token[]): number | null {
  const pending = tokens.map((token) => ({ token, depth: 0 }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { token, depth } = next;
    if (token.type === 'document' && token.value) pending.push({ token: token.value, depth });
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth >= MAX_NESTING) return token.offset;
    for (const item of token.items) {
      if (item.key) pending.push({ token: item.key, depth: depth + 1 });
      if (item.value) pending.push({ token: item.value, depth: depth + 1 });
    }
  }
  return null;
}
