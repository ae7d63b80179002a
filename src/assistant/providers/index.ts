// Picks the model provider the configuration names (DESIGN.md §4 "Status").
import { createFakeProvider } from './fake.js';
import type { ModelProvider } from './types.js';

export interface ProviderConfig {
  model: 'anthropic' | 'fake' | null;
  anthropicApiKey: string | null;
  anthropicModel: string;
  anthropicBaseUrl: string | null;
}

/** null when no model is configured, or `anthropic` is named without a key: the assistant then answers 503. */
export function createProvider(config: ProviderConfig): ModelProvider | null {
  if (config.model === 'fake') return createFakeProvider();
  const apiKey = config.anthropicApiKey;
  if (config.model !== 'anthropic' || !apiKey) return null;
  // The SDK weighs some 20 MB: it is loaded by the first turn that needs it.
  let loaded: Promise<ModelProvider> | null = null;
  return {
    name: 'anthropic',
    complete: async (request, signal) => {
      loaded ??= import('./anthropic.js').then(({ createAnthropicProvider }) =>
        createAnthropicProvider({ apiKey, model: config.anthropicModel, baseURL: config.anthropicBaseUrl }),
      );
      return (await loaded).complete(request, signal);
    },
  };
}
