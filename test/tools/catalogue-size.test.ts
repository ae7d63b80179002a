// What the catalogue costs a model on every turn: names, descriptions and
// input schemas, at about four characters of JSON a token, must stay under
// 4,000 tokens (the benchmark prints the same figure).
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';

describe('the tool catalogue', () => {
  it('costs a model under 4,000 tokens', () => {
    const text = CATALOGUE.map((t) => JSON.stringify({ name: t.name, description: t.description, input_schema: t.input_schema })).join('');
    const tokens = Math.ceil(text.length / 4);
    expect(tokens, `${CATALOGUE.length} tools cost ~${tokens} tokens`).toBeLessThan(4000);
  });
});
