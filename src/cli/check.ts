import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { checkDocument, checkSchemaDocument, compileSchema, SCHEMA_PATH } from '../documents/index.js';
import type { CompiledSchema, Diagnostic } from '../documents/index.js';
import { messageOf } from '../errors.js';

export interface CheckFilesOptions {
  /** A schema file every FILE must satisfy. */
  schema?: string;
  /** The secrets that exist; without it, references are not checked for existence. */
  secrets?: string[];
}

/**
 * `ops check FILE… [--schema S] [--secrets A,B]`: prints `FILE:LINE:COL: error: MESSAGE`
 * for each diagnostic or `ok: FILE`. Exit status 0 when all are clean, 1 when
 * there are diagnostics, 2 when a file or the schema cannot be used. A file
 * named aion.schema.yaml is checked as a schema.
 */
export async function checkFiles(files: string[], opts: CheckFilesOptions, out: (line: string) => void): Promise<number> {
  if (files.length === 0) {
    out('name at least one file to check, e.g. ops check app.yaml');
    return 2;
  }
  const schema = opts.schema === undefined ? null : await loadSchema(opts.schema, out);
  if (schema === 'unusable') return 2;
  const secrets = opts.secrets ? new Set(opts.secrets.map((name) => name.trim()).filter((name) => name !== '')) : null;
  let status = 0;
  for (const file of files) {
    const text = await readText(file, out);
    if (text === null) {
      status = 2;
      continue;
    }
    const diagnostics =
      basename(file) === SCHEMA_PATH ? checkSchemaDocument(text) : checkDocument(text, { schema, secrets });
    print(file, diagnostics, out);
    if (diagnostics.length > 0) status = Math.max(status, 1);
  }
  return status;
}

async function loadSchema(file: string, out: (line: string) => void): Promise<CompiledSchema | 'unusable'> {
  const text = await readText(file, out);
  if (text === null) return 'unusable';
  const compiled = compileSchema(text);
  if ('schema' in compiled) return compiled.schema;
  print(file, compiled.diagnostics, out);
  out(`${file} is not a usable schema; fix it, then check again`);
  return 'unusable';
}

function print(file: string, diagnostics: readonly Diagnostic[], out: (line: string) => void): void {
  if (diagnostics.length === 0) out(`ok: ${file}`);
  for (const { line, column, message } of diagnostics) out(`${file}:${line}:${column}: error: ${message}`);
}

/** The file's text, or null after saying why it cannot be read. */
async function readText(file: string, out: (line: string) => void): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    out(`cannot read ${file}: ${readProblem(error)}`);
    return null;
  }
}

function readProblem(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return messageOf(error);
  }
}
