// The `anthropic` provider: Claude through the official SDK's Messages API.
import Anthropic from '@anthropic-ai/sdk';
import { toProviderError, type FailureContext } from './anthropic-errors.js';
import { fromMessage, toCreateParams } from './anthropic-wire.js';
import type { ModelProvider } from './types.js';

export interface AnthropicOptions {
  apiKey: string;
  model: string;
  /** null or omitted: Anthropic's own API (the environment is not read; config.ts has done that). */
  baseURL?: string | null;
  /** Per attempt; default 60 s. */
  timeoutMs?: number;
  /** Retries of a timeout, connection error, 408, 409, 429 or 5xx; default 1, so a turn fails in bounded time. */
  maxRetries?: number;
}

export function createAnthropicProvider(options: AnthropicOptions): ModelProvider {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 1,
  });
  const failure: FailureContext = { timeoutMs, host: hostOf(client.baseURL), apiKey: options.apiKey };
  return {
    name: 'anthropic',
    async complete(request, signal) {
      try {
        return fromMessage(await client.messages.create(toCreateParams(request, options.model), { signal }));
      } catch (error) {
        throw toProviderError(error, failure);
      }
    },
  };
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return 'the configured base URL';
  }
}
