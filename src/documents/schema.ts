import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Diagnostic } from './diagnostics.js';
import { inDocumentOrder } from './diagnostics.js';
import { locate, locateViolations } from './locate.js';
import { violations } from './schema-violations.js';
import type { Violation } from './schema-violations.js';
import { checkSyntax } from './syntax.js';
import { plainValue } from './value.js';
import { messageOf } from '../errors.js';

/** The path of a project's schema document. */
export const SCHEMA_PATH = 'aion.schema.yaml';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const CACHE_SIZE = 16;

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule.default;

/** A project schema, compiled once per text. */
export interface CompiledSchema {
  /** SHA-256 (hex) of the schema text it was compiled from. */
  readonly digest: string;
  /** How `value` breaks the schema; empty when it satisfies it. */
  violations(value: unknown): Violation[];
}

export type SchemaCompilation = { schema: CompiledSchema } | { diagnostics: Diagnostic[] };

/** Most recently used last; the oldest goes when the map is full. */
const compiled = new Map<string, CompiledSchema>();

/**
 * Compiles a schema document (JSON Schema 2020-12 written in YAML) — or says,
 * as diagnostics of the schema document, why it cannot. The same text is
 * compiled once.
 */
export function compileSchema(text: string): SchemaCompilation {
  const digest = createHash('sha256').update(text).digest('hex');
  const cached = compiled.get(digest);
  if (cached) {
    compiled.delete(digest);
    compiled.set(digest, cached);
    return { schema: cached };
  }
  const result = compile(text, digest);
  if ('schema' in result) {
    compiled.set(digest, result.schema);
    const oldest = compiled.keys().next();
    if (compiled.size > CACHE_SIZE && !oldest.done) compiled.delete(oldest.value);
  }
  return result;
}

/** The diagnostics of the schema document itself: a mapping, and a valid JSON Schema 2020-12. */
export function checkSchemaDocument(text: string): Diagnostic[] {
  const result = compileSchema(text);
  return 'diagnostics' in result ? result.diagnostics : [];
}

function compile(text: string, digest: string): SchemaCompilation {
  const syntax = checkSyntax(text);
  if (!syntax.parsed || syntax.diagnostics.length > 0) return { diagnostics: inDocumentOrder(syntax.diagnostics) };
  const { document, lines } = syntax.parsed;
  const value = plainValue(document, lines);
  if ('diagnostics' in value) return { diagnostics: value.diagnostics };
  const at = (offset: number, message: string): SchemaCompilation => ({ diagnostics: [lines.diagnostic(offset, message)] });
  const schema: object = Object(value.value);
  const dialect: unknown = Reflect.get(schema, '$schema');
  if (dialect !== undefined && dialect !== DIALECT) {
    return at(locate(document, '/$schema', null).offset, `$schema must be ${DIALECT}; Aion validates with JSON Schema 2020-12`);
  }
  const ajv = newAjv();
  let validate: ValidateFunction;
  try {
    if (!ajv.validateSchema(schema)) {
      return { diagnostics: inDocumentOrder(locateViolations(document, lines, violations(ajv.errors ?? []))) };
    }
    validate = ajv.compile(schema);
  } catch (error) {
    return at(0, `the schema cannot be compiled: ${messageOf(error)}`);
  }
  return {
    schema: {
      digest,
      violations(instance: unknown): Violation[] {
        return validate(instance) ? [] : violations(validate.errors ?? []);
      },
    },
  };
}

/** A fresh Ajv per schema: schemas may carry the same $id, and the cache above makes this rare. */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, logger: false });
  addFormats(ajv);
  return ajv;
}
