import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDocument, checkProjectDocument, compileSchema, MAX_DOCUMENT_BYTES } from '../../src/documents/index.js';
import type { CompiledSchema, Diagnostic } from '../../src/documents/index.js';

interface CorpusCase {
  file: string;
  /** Whether the case is checked against corpus/aion.schema.yaml. */
  schema: boolean;
  /** The secrets the environment holds; null leaves existence unchecked. */
  secrets: string[] | null;
  diagnostics: Diagnostic[];
}

const corpus = new URL('./corpus/', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, corpus), 'utf8');
const cases: CorpusCase[] = JSON.parse(read('cases.json'));
const schema = compiled(read('aion.schema.yaml'));

function compiled(text: string): CompiledSchema {
  const result = compileSchema(text);
  if (!('schema' in result)) throw new Error(`the corpus schema does not compile: ${JSON.stringify(result.diagnostics)}`);
  return result.schema;
}

function checkCase({ file, schema: withSchema, secrets }: CorpusCase): Diagnostic[] {
  return checkDocument(read(file), { schema: withSchema ? schema : null, secrets: secrets ? new Set(secrets) : null });
}

describe('the corpus', () => {
  it('holds at least 25 broken documents and some valid ones', () => {
    expect(cases.filter((corpusCase) => corpusCase.file.startsWith('broken/')).length).toBeGreaterThanOrEqual(25);
    expect(cases.filter((corpusCase) => corpusCase.diagnostics.length > 0).length).toBeGreaterThanOrEqual(25);
    expect(cases.filter((corpusCase) => corpusCase.file.startsWith('valid/')).length).toBeGreaterThanOrEqual(5);
  });

  it.each(cases)('$file gives exactly its expected diagnostics', (corpusCase) => {
    expect(checkCase(corpusCase)).toEqual(corpusCase.diagnostics);
  });

  it('keeps CRLF line breaks in the CRLF fixtures (git must not convert them)', () => {
    expect(read('broken/crlf.yaml')).toContain('\r\n');
    expect(read('valid/crlf.yaml')).toContain('\r\n');
  });
});

describe('the size limit', () => {
  const tooLarge = (bytes: string): string =>
    `the document is ${bytes} bytes of UTF-8, over the limit of 1 MiB (1,048,576 bytes); split it into smaller documents`;

  it('accepts exactly 1 MiB', () => {
    const text = `a: ${'x'.repeat(MAX_DOCUMENT_BYTES - 4)}\n`;
    expect(Buffer.byteLength(text)).toBe(MAX_DOCUMENT_BYTES);
    expect(checkDocument(text)).toEqual([]);
  });

  it('gives one diagnostic at 1:1 for a byte more, and checks nothing else', () => {
    const text = `- [ ${'x'.repeat(MAX_DOCUMENT_BYTES)}`;
    expect(checkDocument(text, { schema, secrets: new Set() })).toEqual([
      { line: 1, column: 1, message: tooLarge('1,048,580') },
    ]);
  });

  it('counts bytes of UTF-8, not characters', () => {
    const text = `a: ${'é'.repeat(600_000)}\n`;
    expect(text.length).toBeLessThan(MAX_DOCUMENT_BYTES);
    expect(checkDocument(text)).toEqual([{ line: 1, column: 1, message: tooLarge('1,200,004') }]);
  });
});

describe('checkDocument', () => {
  it('leaves secret existence unchecked without a set of secrets', () => {
    expect(checkDocument('url: ${secret:ANYTHING}\n')).toEqual([]);
    expect(checkDocument('url: ${secret:ANYTHING}\n', { secrets: null })).toEqual([]);
  });

  it('reports malformed references even without a set of secrets', () => {
    expect(checkDocument('url: ${secret:}\n')).toEqual([
      {
        line: 1,
        column: 6,
        message:
          '"${secret:}" does not name a valid secret; a secret name is capital letters, digits and _, not starting with a digit, at most 128 characters',
      },
    ]);
  });

  it('reports a reference once per place, however often an alias repeats it', () => {
    const text = 'a: &x "${secret:GONE}"\nb: *x\nc: *x\n';
    expect(checkDocument(text, { secrets: new Set() })).toEqual([
      { line: 1, column: 8, message: 'secret GONE is not set in this environment; set it with set_secret or remove the reference' },
    ]);
  });

  it('locates a violation at the alias that puts the value there, or inside the anchor an alias leads through', () => {
    expect(checkDocument('name: shop\np: &p "80"\nserver:\n  port: *p\n', { schema })).toEqual([
      { line: 2, column: 1, message: '"p" is not an allowed key in the document; remove it or check its spelling' },
      { line: 4, column: 9, message: 'server.port must be an integer, not the string "80"' },
    ]);
    expect(checkDocument('name: shop\nbase: &b\n  port: "80"\nserver: *b\n', { schema })).toEqual([
      { line: 2, column: 1, message: '"base" is not an allowed key in the document; remove it or check its spelling' },
      { line: 3, column: 9, message: 'server.port must be an integer, not the string "80"' },
    ]);
  });

  it('stops at YAML errors: no schema or reference diagnostics on a guessed structure', () => {
    expect(checkDocument('a: 1\na: ${nope}\n', { schema, secrets: new Set() })).toEqual([
      { line: 2, column: 1, message: 'duplicate key "a"; a mapping holds each key once, so remove or rename one of them' },
    ]);
  });

  it('refuses nesting deeper than 200 levels before anything recurses into it', () => {
    const flow = `a: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    expect(checkDocument(flow)).toEqual([{ line: 1, column: 203, message: 'the document nests deeper than 200 levels here; flatten it' }]);
    const block = `a:\n${'- '.repeat(100_000)}x\n`;
    expect(checkDocument(block)).toEqual([{ line: 2, column: 399, message: 'the document nests deeper than 200 levels here; flatten it' }]);
    expect(checkDocument(`a: ${'['.repeat(199)}${']'.repeat(199)}\n`)).toEqual([]);
  });

  it('refuses aliases that chain the value deeper than 200 levels', () => {
    const chain = ['a0: &a0 [x]', ...Array.from({ length: 300 }, (_, index) => `a${index + 1}: &a${index + 1} [*a${index}]`)];
    expect(checkDocument(chain.join('\n'))).toEqual([
      { line: 200, column: 14, message: 'the alias *a198 nests the value deeper than 200 levels; use fewer levels of aliases' },
    ]);
  });

  it('checks the schema document as a schema when its path is aion.schema.yaml', () => {
    expect(checkProjectDocument('aion.schema.yaml', 'type: 12\n')).toEqual([
      { line: 1, column: 7, message: 'type must be one of "array", "boolean", "integer", "null", "number", "object", "string"' },
    ]);
    expect(checkProjectDocument('app.yaml', 'type: 12\n')).toEqual([]);
  });

  it('never throws and keeps every position inside the text', () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          'a', 'key', ': ', ':', ' ', '  ', '\n', '\r\n', '\r', '\t', '- ', '[', ']', '{', '}', ',', '"', "'", '\\', '#',
          '|', '>', '? ', '&x ', '*x', '!!str ', '!x ', '---\n', '...\n', '%YAML 1.1\n', '$', '${', '$${', '}', 'secret:',
          'A', 'ok', '.inf', '~', 'é', '😀', '\uFEFF', '\u0000', 'name: ', 'server:\n  port: ',
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join(''));
    const anyText = fc.oneof(yamlish, fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ maxLength: 80 }));
    fc.assert(
      fc.property(anyText, (text) => {
        const diagnostics = checkDocument(text, { schema, secrets: new Set(['A']) });
        const lines = text.split('\n');
        let previous: Diagnostic | null = null;
        for (const diagnostic of diagnostics) {
          expect(diagnostic.message).not.toBe('');
          expect(diagnostic.line).toBeGreaterThanOrEqual(1);
          expect(diagnostic.line).toBeLessThanOrEqual(lines.length);
          expect(diagnostic.column).toBeGreaterThanOrEqual(1);
          expect(diagnostic.column).toBeLessThanOrEqual((lines[diagnostic.line - 1] ?? '').length + 1);
          if (previous) {
            const ordered = previous.line < diagnostic.line || (previous.line === diagnostic.line && previous.column <= diagnostic.column);
            expect(ordered).toBe(true);
          }
          previous = diagnostic;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
