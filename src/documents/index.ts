/** The document language: paths, checking, schemas, secret references, edits and diffs. Pure functions. */
export type { Diagnostic } from './diagnostics.js';
export { LineIndex } from './diagnostics.js';
export { documentPathProblem } from './path.js';
export type { CheckOptions } from './check.js';
export { checkDocument, checkProjectDocument } from './check.js';
export { MAX_DOCUMENT_BYTES } from './syntax.js';
export type { CompiledSchema, SchemaCompilation } from './schema.js';
export { checkSchemaDocument, compileSchema, SCHEMA_PATH } from './schema.js';
export { isSecretName } from './references.js';
export { resolveSecrets, secretReferences } from './secrets.js';
export { parseDocument } from './parse.js';
export type { EditsResult, Replacement, TextEdit } from './edits.js';
export { applyEdits, applyReplacements } from './edits.js';
export { unifiedDiff } from './diff.js';
