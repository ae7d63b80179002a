// Picks the model provider the configuration names (DESIGN.md §4 "Status").
import { createAnthropicProvider } from './anthropic.js';
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
  if (config.model !== 'anthropic' || !config.anthropicApiKey) return null;
  return createAnthropicProvider({
    apiKey: config.anthropicApiKey,
    model: config.anthropicModel,
    baseURL: config.anthropicBaseUrl,
  });
}
