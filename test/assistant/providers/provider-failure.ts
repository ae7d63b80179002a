// Awaits a provider call that must fail, and gives its ProviderError to look at.
import { expect } from 'vitest';
import { ProviderError } from '../../../src/assistant/providers/types.js';

export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
