// A tool declares its secret fields with no default (issue 34): a field whose
// name looks secret is declared secret or plain, or the catalogue refuses to
// load (the executor checks it when it is made, so the server does not start).
import { describe, expect, it } from 'vitest';
import { CONVERSATION_TOOLS } from '../../src/conversation/tools.js';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { assertSecretsDeclared, undeclaredSecrets } from '../../src/tools/secret-fields.js';
import { withInput } from '../../src/tools/types.js';

/** A write tool taking `fields` (strings), declaring what it is given. */
function toolWith(fields: string[], declared: { secretFields: string[]; plainFields?: string[] }) {
  return withInput({
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field, { type: 'string' }])),
    additionalProperties: false,
  }).define({
    name: 'store_credential',
    description: 'A tool a newcomer might add.',
    permission: null,
    tag: 'write',
    scope: 'none',
    ...declared,
    run: async () => ({}),
  });
}

describe('the catalogue', () => {
  it('declares every field that looks secret, and loads', () => {
    expect(() => assertSecretsDeclared([...CATALOGUE, ...CONVERSATION_TOOLS])).not.toThrow();
    expect(CATALOGUE.find((tool) => tool.name === 'set_secret')?.secretFields).toEqual(['value']);
  });

  it.each([
    ['password', 'tool store_credential has input field "password" that looks secret: list it in secretFields (the audit keeps [redacted]) or in plainFields (it holds no secret value)'],
    ['api_key', 'tool store_credential has input field "api_key" that looks secret: list it in secretFields (the audit keeps [redacted]) or in plainFields (it holds no secret value)'],
    ['token', 'tool store_credential has input field "token" that looks secret: list it in secretFields (the audit keeps [redacted]) or in plainFields (it holds no secret value)'],
    ['client_secret', 'tool store_credential has input field "client_secret" that looks secret: list it in secretFields (the audit keeps [redacted]) or in plainFields (it holds no secret value)'],
    ['value', 'tool store_credential has input field "value" that looks secret: list it in secretFields (the audit keeps [redacted]) or in plainFields (it holds no secret value)'],
  ])('refuses a tool whose "%s" is declared neither way, saying what to do', (field, sentence) => {
    const tool = toolWith(['name', field], { secretFields: [] });
    expect(undeclaredSecrets(tool)).toBe(sentence);
    expect(() => assertSecretsDeclared([...CATALOGUE, tool])).toThrow(sentence);
  });

  it('loads a tool that declares the field secret, or plain', () => {
    expect(undeclaredSecrets(toolWith(['name', 'password'], { secretFields: ['password'] }))).toBeNull();
    expect(undeclaredSecrets(toolWith(['name', 'token_name'], { secretFields: [], plainFields: ['token_name'] }))).toBeNull();
    expect(undeclaredSecrets(toolWith(['name', 'path'], { secretFields: [] }))).toBeNull();
  });

  it('refuses a declaration of a field the schema does not have, or of one field both ways', () => {
    expect(undeclaredSecrets(toolWith(['name', 'password'], { secretFields: ['passwd', 'password'] }))).toBe(
      'tool store_credential declares "passwd" in secretFields or plainFields, which its input schema does not have',
    );
    expect(undeclaredSecrets(toolWith(['password'], { secretFields: ['password'], plainFields: ['password'] }))).toBe(
      'tool store_credential declares "password" both secret and plain; say which',
    );
  });
});
