// createProvider: which model the configuration names, or none.
import { describe, expect, it } from 'vitest';
import { createProvider, type ProviderConfig } from '../../../src/assistant/providers/index.js';

const unset: ProviderConfig = { model: null, anthropicApiKey: null, anthropicModel: 'claude-sonnet-4-5', anthropicBaseUrl: null };

describe('createProvider', () => {
  it('gives none when no model is configured', () => {
    expect(createProvider(unset)).toBeNull();
    expect(createProvider({ ...unset, anthropicApiKey: 'sk-ant-unused' })).toBeNull();
  });

  it('gives the fake model, with or without a key', () => {
    expect(createProvider({ ...unset, model: 'fake' })?.name).toBe('fake');
    expect(createProvider({ ...unset, model: 'fake', anthropicApiKey: 'sk-ant-unused' })?.name).toBe('fake');
  });

  it('gives the anthropic provider only with a key', () => {
    expect(createProvider({ ...unset, model: 'anthropic' })).toBeNull();
    expect(createProvider({ ...unset, model: 'anthropic', anthropicApiKey: '' })).toBeNull();
    expect(createProvider({ ...unset, model: 'anthropic', anthropicApiKey: 'sk-ant-test', anthropicBaseUrl: 'http://127.0.0.1:1' })?.name).toBe('anthropic');
  });
});
