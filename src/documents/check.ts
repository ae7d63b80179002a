import { visit } from 'yaml';
import type { Document, Scalar } from 'yaml';
import type { Diagnostic, LineIndex } from './diagnostics.js';
import { inDocumentOrder } from './diagnostics.js';
import { locateViolations } from './locate.js';
import { scanReferences } from './references.js';
import { valueOffsets } from './scalar-offsets.js';
import { checkSchemaDocument, SCHEMA_PATH } from './schema.js';
import type { CompiledSchema } from './schema.js';
import { checkSyntax } from './syntax.js';
import { plainValue } from './value.js';

export interface CheckOptions {
  /** The project's compiled schema; absent or null when the project has none. */
  schema?: CompiledSchema | null;
  /** The secrets the target environment holds; absent or null to leave their existence unchecked. */
  secrets?: ReadonlySet<string> | null;
}

/**
 * Every diagnostic of a document, in document order; none means it would
 * deploy. YAML errors stop the checking there: the structure the parser
 * recovered is a guess, and diagnostics about it would mislead.
 */
export function checkDocument(text: string, options: CheckOptions = {}): Diagnostic[] {
  const syntax = checkSyntax(text);
  if (!syntax.parsed) return inDocumentOrder(syntax.diagnostics);
  const { document, lines } = syntax.parsed;
  const diagnostics = [...syntax.diagnostics, ...scalarDiagnostics(text, document, lines, options.secrets ?? null)];
  const value = plainValue(document, lines);
  if ('diagnostics' in value) diagnostics.push(...value.diagnostics);
  else if (options.schema) diagnostics.push(...locateViolations(document, lines, options.schema.violations(value.value)));
  return inDocumentOrder(diagnostics);
}

/** What each key and value says on its own: numbers JSON cannot carry, and the references in strings. */
function scalarDiagnostics(
  text: string,
  document: Document.Parsed,
  lines: LineIndex,
  secrets: ReadonlySet<string> | null,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  visit(document, {
    Scalar(_, scalar) {
      const start = scalar.range?.[0] ?? 0;
      if (typeof scalar.value === 'number' && !Number.isFinite(scalar.value)) {
        const source = text.slice(start, scalar.range?.[1] ?? start);
        diagnostics.push(
          lines.diagnostic(
            start,
            `${source} has no JSON equivalent, so services cannot read it; write a finite number, or quote it to keep it as text`,
          ),
        );
      }
      if (typeof scalar.value === 'string') diagnostics.push(...referenceDiagnostics(text, scalar, lines, secrets));
    },
  });
  return diagnostics;
}

/** Malformed references, and references to secrets the environment lacks — at the reference when it can be pinned. */
function referenceDiagnostics(
  text: string,
  scalar: Scalar,
  lines: LineIndex,
  secrets: ReadonlySet<string> | null,
): Diagnostic[] {
  const tokens = scanReferences(String(scalar.value));
  const offsets = tokens.length > 0 ? valueOffsets(text, scalar) : null;
  const at = (index: number): number => offsets?.[index] ?? scalar.range?.[0] ?? 0;
  const diagnostics: Diagnostic[] = [];
  for (const token of tokens) {
    if (token.kind === 'malformed') diagnostics.push(lines.diagnostic(at(token.start), token.problem));
    if (token.kind === 'secret' && secrets && !secrets.has(token.name)) {
      diagnostics.push(
        lines.diagnostic(
          at(token.start),
          `secret ${token.name} is not set in this environment; set it with set_secret or remove the reference`,
        ),
      );
    }
  }
  return diagnostics;
}

/** Checks a project's document by its path: the schema document as a schema, any other with `options`. */
export function checkProjectDocument(path: string, text: string, options: CheckOptions = {}): Diagnostic[] {
  return path === SCHEMA_PATH ? checkSchemaDocument(text) : checkDocument(text, options);
}
