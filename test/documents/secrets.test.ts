import { describe, expect, it } from 'vitest';
import { isSecretName, parseDocument, resolveSecrets, secretReferences } from '../../src/documents/index.js';

const secrets: Record<string, string> = { DB_USER: 'ada', DB_PASSWORD: 'p4$$w0rd}', EMPTY: '' };
const lookup = (name: string): string | undefined => secrets[name];

describe('secretReferences', () => {
  it('collects the names referred to anywhere: nested values, sequences and keys', () => {
    const value = parseDocument(
      'db:\n  url: postgres://${secret:DB_USER}:${secret:DB_PASSWORD}@db\nlist: [a, "${secret:TOKEN}"]\n${secret:IN_KEY}: 1\n',
    );
    expect(secretReferences(value)).toEqual(new Set(['DB_USER', 'DB_PASSWORD', 'TOKEN', 'IN_KEY']));
  });

  it('ignores escapes, malformed references and non-strings', () => {
    const value = parseDocument('a: $${secret:ESCAPED}\nb: ${secret:lower}\nc: ${OTHER}\nd: 12\ne: null\nf: $$${secret:AFTER_DOLLAR}\n');
    expect(secretReferences(value)).toEqual(new Set(['AFTER_DOLLAR']));
  });
});

describe('resolveSecrets', () => {
  it('replaces every reference and leaves the input untouched', () => {
    const value = parseDocument('url: postgres://${secret:DB_USER}:${secret:DB_PASSWORD}@db\nlist: ["${secret:EMPTY}x"]\nport: 5432\n');
    const before = structuredClone(value);
    expect(resolveSecrets(value, lookup)).toEqual({ url: 'postgres://ada:p4$$w0rd}@db', list: ['x'], port: 5432 });
    expect(value).toEqual(before);
  });

  it('turns the escape into what it stands for', () => {
    const value = parseDocument("a: $${secret:DB_USER}\nb: $$${secret:DB_USER}\nc: $$$${x}\nd: pa$$word $5\ne: '$${'\n");
    expect(resolveSecrets(value, lookup)).toEqual({ a: '${secret:DB_USER}', b: '$ada', c: '$${x}', d: 'pa$$word $5', e: '${' });
  });

  it('leaves unknown and malformed references as written', () => {
    const value = parseDocument('a: ${secret:UNKNOWN}\nb: ${oops}\nc: ${secret:DB_USER\n');
    expect(resolveSecrets(value, lookup)).toEqual({ a: '${secret:UNKNOWN}', b: '${oops}', c: '${secret:DB_USER' });
  });

  it('resolves keys too, and keeps a key named __proto__ a key', () => {
    const value = parseDocument('${secret:DB_USER}: 1\n__proto__: { polluted: true }\n');
    const resolved = resolveSecrets(value, lookup);
    expect(Object.keys(Object(resolved))).toEqual(['ada', '__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(resolved)).toBe('{"ada":1,"__proto__":{"polluted":true}}');
  });
});

describe('isSecretName', () => {
  it.each([
    ['DATABASE_URL', true],
    ['_PRIVATE', true],
    ['A1', true],
    ['A'.repeat(128), true],
    ['A'.repeat(129), false],
    ['1ST', false],
    ['lower', false],
    ['WITH-DASH', false],
    ['', false],
  ])('%s → %s', (name, valid) => {
    expect(isSecretName(name)).toBe(valid);
  });
});

describe('parseDocument', () => {
  it('gives plain JSON values: YAML 1.2 core, string keys, no YAML 1.1 types', () => {
    expect(parseDocument('on: yes\n1: 2001-12-14\nnull: ~\nt: true\nf: 1.5\n')).toEqual({
      on: 'yes',
      '1': '2001-12-14',
      null: null,
      t: true,
      f: 1.5,
    });
  });

  it('expands more than a hundred aliases of one anchor', () => {
    const lines = ['base: &b { x: 1 }', ...Array.from({ length: 300 }, (_, index) => `s${index}: *b`)];
    const value = parseDocument(lines.join('\n'));
    expect(Object(value)['s299']).toEqual({ x: 1 });
  });

  it('throws on text that is not valid YAML', () => {
    expect(() => parseDocument('a: [1\n')).toThrow(/^the document is not valid YAML: /);
  });
});
