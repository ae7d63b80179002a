import { isMap, isNode, isScalar, isSeq, visit } from 'yaml';
import type { Document, YAMLError } from 'yaml';
import { LineIndex } from './diagnostics.js';
import type { Diagnostic } from './diagnostics.js';
import { MAX_NESTING, parseDocuments } from './parse.js';

export const MAX_DOCUMENT_BYTES = 1_048_576;

const MAPPING_EXAMPLE = 'it must be a mapping of keys to values, e.g. "name: shop"';
const SECOND_DOCUMENT =
  'a second YAML document starts here; a document holds exactly one, so move this part to its own document or remove it';

export interface SyntaxCheck {
  diagnostics: Diagnostic[];
  /** Present when the text is valid YAML with a mapping at its root, ready for checks of its content. */
  parsed: { document: Document.Parsed; lines: LineIndex } | null;
}

/**
 * The checks every document and the schema share: size, nesting, YAML
 * errors and warnings, duplicate keys, one document per text, YAML 1.2, a
 * mapping at the root. When the YAML has errors, the structure the parser
 * recovered is a guess, so the root is not judged and `parsed` is null.
 */
export function checkSyntax(text: string): SyntaxCheck {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_DOCUMENT_BYTES) return { diagnostics: [{ line: 1, column: 1, message: tooLarge(bytes) }], parsed: null };
  const lines = new LineIndex(text);
  const parsedText = parseDocuments(text);
  if ('tooDeepAt' in parsedText) {
    const message = `the document nests deeper than ${MAX_NESTING} levels here; flatten it`;
    return { diagnostics: [lines.diagnostic(parsedText.tooDeepAt, message)], parsed: null };
  }
  const { documents } = parsedText;
  const diagnostics: Diagnostic[] = [];
  let firstIsValid = true;
  for (const [index, document] of documents.entries()) {
    const problems = [...document.errors, ...document.warnings].map((problem) => describeYamlProblem(problem, text, document));
    const duplicates = duplicateKeys(document);
    if (index === 0) firstIsValid = document.errors.length === 0 && duplicates.length === 0;
    for (const { offset, message } of [...problems, ...duplicates]) diagnostics.push(lines.diagnostic(offset, message));
  }
  const [first, second] = documents;
  if (second) diagnostics.push(lines.diagnostic(second.range[0], SECOND_DOCUMENT));
  if (first === undefined) {
    diagnostics.push(lines.diagnostic(0, `the document is empty; ${MAPPING_EXAMPLE}`));
    return { diagnostics, parsed: null };
  }
  const version = first.directives.yaml;
  if (version.explicit && version.version !== '1.2') {
    const directive = /^%YAML\b/m.exec(text);
    diagnostics.push(
      lines.diagnostic(
        directive?.index ?? 0,
        `%YAML ${version.version} is not supported; documents are read as YAML 1.2, so remove this line`,
      ),
    );
  }
  if (!firstIsValid) return { diagnostics, parsed: null };
  const root = first.contents;
  if (isMap(root)) return { diagnostics, parsed: { document: first, lines } };
  const offset = isNode(root) && root.range ? root.range[0] : 0;
  diagnostics.push(lines.diagnostic(offset, rootMessage(root)));
  return { diagnostics, parsed: null };
}

function tooLarge(bytes: number): string {
  const count = (n: number): string => n.toLocaleString('en-US');
  return (
    `the document is ${count(bytes)} bytes of UTF-8, over the limit of 1 MiB (${count(MAX_DOCUMENT_BYTES)} bytes); ` +
    'split it into smaller documents'
  );
}

function rootMessage(root: unknown): string {
  if (root === null || (isScalar(root) && root.value === null && root.range?.[0] === root.range?.[1])) {
    return `the document is empty; ${MAPPING_EXAMPLE}`;
  }
  return `the document's root is ${kindOf(root)}; ${MAPPING_EXAMPLE}`;
}

function kindOf(node: unknown): string {
  if (isSeq(node)) return 'a sequence';
  if (!isScalar(node)) return 'an alias';
  switch (typeof node.value) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'null';
  }
}

/** The yaml package's problem, reworded and moved where the operator needs more than it says. */
function describeYamlProblem(problem: YAMLError, text: string, document: Document.Parsed): { offset: number; message: string } {
  const offset = problem.pos[0];
  switch (problem.code) {
    case 'TAG_RESOLVE_FAILED': {
      const tag = text.slice(offset, problem.pos[1]);
      const message = `the tag ${tag} is not supported; remove it (YAML 1.2 knows !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)`;
      return { offset, message };
    }
    case 'NON_STRING_KEY':
      return { offset, message: 'a mapping or a sequence cannot be a key; use a string, as documents are served as JSON' };
    case 'TAB_AS_INDENT':
      return { offset, message: 'tabs are not allowed as indentation; indent with spaces' };
    case 'MISSING_CHAR':
      return unclosedQuote(problem, text, document) ?? { offset, message: sentence(problem.message) };
    default:
      return { offset, message: sentence(problem.message) };
  }
}

/**
 * The parser notices a missing closing quote where the text ends; the
 * operator needs the opening quote, the last quoted string that starts
 * before that point.
 */
function unclosedQuote(problem: YAMLError, text: string, document: Document.Parsed): { offset: number; message: string } | null {
  if (!problem.message.startsWith('Missing closing')) return null;
  let opening: number | null = null;
  visit(document, {
    Scalar(_, scalar) {
      const start = scalar.range?.[0];
      const quoted = scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE';
      if (quoted && start !== undefined && start < problem.pos[0] && (opening === null || start > opening)) opening = start;
    },
  });
  if (opening === null) return null;
  const quote = text.charAt(opening);
  return { offset: opening, message: `this string's opening ${quote} has no closing ${quote}; close the string where it should end` };
}

/** Every key that repeats an earlier key of its mapping, where it repeats it. */
function duplicateKeys(document: Document.Parsed): Array<{ offset: number; message: string }> {
  const duplicates: Array<{ offset: number; message: string }> = [];
  visit(document, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        const name = String(key.value);
        if (seen.has(name)) {
          const message = `duplicate key ${JSON.stringify(name)}; a mapping holds each key once, so remove or rename one of them`;
          duplicates.push({ offset: key.range?.[0] ?? 0, message });
        }
        seen.add(name);
      }
    },
  });
  return duplicates;
}

/** "Missing closing quote." → "missing closing quote", leaving words like "YAML" alone. */
function sentence(message: string): string {
  const trimmed = message.trim().replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed.charAt(0).toLowerCase() + trimmed.slice(1) : trimmed;
}
