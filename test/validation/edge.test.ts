// The edge's checks compile when first used (a start compiles none), so every
// tool's input schema is compiled here; the routes' schemas are, through
// test/http/bad-input.test.ts, which sends each route of the OpenAPI document
// a body it refuses.
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { compileAtTheEdge, compileNow, createAjv } from '../../src/validation/ajv.js';

describe('the edge', () => {
  it('compiles every tool’s input schema, with the store’s limits', () => {
    const ajv = createAjv();
    for (const tool of CATALOGUE) expect(() => compileNow(ajv, tool.input_schema), tool.name).not.toThrow();
  });

  it('compiles a schema on its first use, then says why what fails fails', () => {
    const ajv = createAjv();
    const validate = compileAtTheEdge(() => ajv, { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer' } }, required: ['name'] });
    expect(validate({ name: 'ok', n: 1 })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(validate({ name: 'a\u0000b' })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('storable');
    expect(validate({ name: 'x', n: 2 ** 40 })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('maximum');
  });
});
