// Turns what the Anthropic SDK throws into a ProviderError whose sentence an
// operator can act on (a turn that meets it answers 503 with the sentence).
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { firstCharacters } from './first-characters.js';
import { ProviderError } from './types.js';

/** Enough of the API's own explanation to act on, not a wall of text in the console. */
const API_MESSAGE_LIMIT = 300;

export interface FailureContext {
  timeoutMs: number;
  /** The API's host, never the whole base URL, which could carry credentials. */
  host: string;
  /** Only to make sure it never reaches a sentence. */
  apiKey: string;
}

export function toProviderError(error: unknown, context: FailureContext): ProviderError {
  return new ProviderError(withoutKey(sentence(error, context), context.apiKey), { cause: error });
}

function sentence(error: unknown, { timeoutMs, host }: FailureContext): string {
  // The timeout is a kind of connection error, so it is asked first.
  if (error instanceof APIConnectionTimeoutError) return `Anthropic did not answer within ${timeoutMs / 1000} s; try again in a moment`;
  if (error instanceof APIConnectionError) return `could not reach the Anthropic API at ${host}; check the network and ANTHROPIC_BASE_URL`;
  if (error instanceof APIUserAbortError) return 'the request to Anthropic was cancelled';
  if (!(error instanceof APIError) || error.status === undefined) return 'the request to Anthropic failed unexpectedly; see the server log';
  const { status } = error;
  if (status === 401 || status === 403) return `Anthropic refused the API key (HTTP ${status}); check ANTHROPIC_API_KEY`;
  if (status === 429) return 'rate limited by Anthropic; try again in a moment';
  if (status === 529 || error.type === 'overloaded_error') return 'Anthropic is overloaded; try again in a moment';
  if (status >= 500) return `the Anthropic API failed (HTTP ${status}); try again in a moment`;
  // Other refusals (a model it does not know, a prompt too long) are explained by the API's own message.
  const reason = error.apiMessage ? `: ${firstCharacters(error.apiMessage, API_MESSAGE_LIMIT)}` : '';
  return `Anthropic refused the request (HTTP ${status})${reason}`;
}

/** The API's message is echoed above; a proxy at the base URL could echo the key into it. */
function withoutKey(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}
