import { describe, expect, it } from 'vitest';
import { checkDocument, checkSchemaDocument, compileSchema } from '../../src/documents/index.js';
import type { CompiledSchema, Diagnostic } from '../../src/documents/index.js';

function compiled(text: string): CompiledSchema {
  const result = compileSchema(text);
  if (!('schema' in result)) throw new Error(JSON.stringify(result.diagnostics));
  return result.schema;
}

function problems(text: string): Diagnostic[] {
  const result = compileSchema(text);
  return 'diagnostics' in result ? result.diagnostics : [];
}

const at = (line: number, column: number, message: string): Diagnostic => ({ line, column, message });

describe('compileSchema', () => {
  it('compiles a schema written in YAML and gives the same compiled schema for the same text', () => {
    const text = 'type: object\nrequired: [name]\n';
    const first = compiled(text);
    expect(compiled(text)).toBe(first);
    expect(first.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(compiled(`${text}# another text\n`)).not.toBe(first);
  });

  it('compiles two schemas that carry the same $id', () => {
    expect('schema' in compileSchema('$id: https://example.com/s\ntype: object\n')).toBe(true);
    expect('schema' in compileSchema('$id: https://example.com/s\ntype: object\nrequired: [x]\n')).toBe(true);
  });

  it('reports YAML errors of the schema text', () => {
    expect(problems('type: [object\n')).toEqual([
      at(2, 1, 'flow sequence in block collection must be sufficiently indented and end with a ]'),
    ]);
  });

  it('requires a mapping at the root', () => {
    expect(problems('true\n')).toEqual([
      at(1, 1, `the document's root is a boolean; it must be a mapping of keys to values, e.g. "name: shop"`),
    ]);
    expect(problems('')).toEqual([at(1, 1, 'the document is empty; it must be a mapping of keys to values, e.g. "name: shop"')]);
  });

  it('locates meta-schema violations at the offending node', () => {
    expect(problems('type: strin\n')).toEqual([
      at(1, 7, 'type must be one of "array", "boolean", "integer", "null", "number", "object", "string"'),
    ]);
    expect(problems('type: object\nproperties:\n  port: { type: integer, minimum: "1" }\n  name:\n    required: name\n')).toEqual([
      at(3, 35, 'properties.port.minimum must be a number, not the string "1"'),
      at(5, 15, 'properties.name.required must be an array, not the string "name"'),
    ]);
  });

  it('accepts only the 2020-12 dialect', () => {
    expect(problems('$schema: http://json-schema.org/draft-07/schema#\ntype: object\n')).toEqual([
      at(1, 10, '$schema must be https://json-schema.org/draft/2020-12/schema; Aion validates with JSON Schema 2020-12'),
    ]);
    expect(problems('$schema: https://json-schema.org/draft/2020-12/schema\ntype: object\n')).toEqual([]);
  });

  it('reports what Ajv cannot compile at 1:1', () => {
    expect(problems('type: object\nproperties:\n  a: { $ref: "#/$defs/nope" }\n')).toEqual([
      at(1, 1, "the schema cannot be compiled: can't resolve reference #/$defs/nope from id #"),
    ]);
    expect(problems('type: object\nproperties:\n  a: { pattern: "(" }\n')).toEqual([
      at(1, 1, 'the schema cannot be compiled: Invalid regular expression: /(/u: Unterminated group'),
    ]);
  });

  it('gives the same diagnostics through checkSchemaDocument, and none for a valid schema', () => {
    expect(checkSchemaDocument('type: strin\n')).toEqual(problems('type: strin\n'));
    expect(checkSchemaDocument('type: object\n')).toEqual([]);
  });
});

describe('schema violations', () => {
  const schema = compiled(`
type: object
properties:
  any: { anyOf: [{ type: string }, { type: integer }] }
  one: { oneOf: [{ type: number }, { type: integer }] }
  konst: { const: fixed }
  mail: { type: string, format: email }
  tags: { type: array, uniqueItems: true, minItems: 2, maxItems: 3, items: { type: string, maxLength: 3 } }
  deps: { type: object, dependentRequired: { user: [password] } }
  names: { type: object, propertyNames: { pattern: "^[a-z]+$" }, maxProperties: 1 }
  never: false
  notnull: { not: { type: "null" } }
  ratio: { type: number, exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }
  cond: { if: { type: string }, then: { minLength: 3 }, else: { type: integer } }
  list: { type: array, contains: { const: x } }
  many: { enum: [a, b, c, d, e, f, g, h, i, j, k, l] }
  multi: { type: [string, "null"] }
  "odd key": { type: object, properties: { "a/b": { type: string } } }
`);

  it('turns each keyword into a sentence at the node it is about', () => {
    const text = [
      'any: true',
      'one: 1',
      'konst: other',
      'mail: nope',
      'tags: [abcd, abcd, x, y]',
      'deps: { user: ada }',
      'names: { Ab: 1, c: 2 }',
      'never: 1',
      'notnull: null',
      'ratio: 1.1',
      'cond: ab',
      'list: [y]',
      'many: z',
      'multi: 1',
      'odd key: { a/b: 1 }',
      '',
    ].join('\n');
    expect(checkDocument(text, { schema })).toEqual([
      at(1, 6, 'any matches none of the forms its schema allows (anyOf)'),
      at(2, 6, 'one matches more than one of the forms its schema allows (oneOf); it must match exactly one'),
      at(3, 8, 'konst must be "fixed"'),
      at(4, 7, 'mail must be a valid email'),
      at(5, 7, 'tags must hold at most 3 items'),
      at(5, 7, 'tags must not repeat items; items 0 and 1 (counting from 0) are equal'),
      at(5, 8, 'tags[0] must be at most 3 characters long'),
      at(5, 14, 'tags[1] must be at most 3 characters long'),
      at(6, 7, 'deps is missing the key "password", which "user" requires'),
      at(7, 8, 'names must hold at most 1 key'),
      at(7, 10, '"Ab" is not a valid key name in names'),
      at(8, 8, 'never is not allowed here'),
      at(9, 10, 'notnull matches a form its schema forbids (not)'),
      at(10, 8, 'ratio must be less than 1'),
      at(10, 8, 'ratio must be a multiple of 0.25'),
      at(11, 7, 'cond must be at least 3 characters long'),
      at(12, 7, 'list must hold at least 1 item matching its "contains" schema'),
      at(13, 7, 'many must be one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", … (12 values)'),
      at(14, 8, 'multi must be a string or null, not the number 1'),
      at(15, 17, '["odd key"]["a/b"] must be a string, not the number 1'),
    ]);
  });

  it('gives no diagnostics for a value that satisfies the schema', () => {
    expect(checkDocument('any: 1\ntags: [a, b]\ncond: 7\nlist: [y, x]\n', { schema })).toEqual([]);
  });
});
