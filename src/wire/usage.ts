// GET /api/v1/assistant/threads/{id}/usage: a thread's model token totals.
import type { FromSchema } from 'json-schema-to-ts';

const tokenCount = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

export const usageSchema = {
  type: 'object',
  properties: {
    calls: { type: 'integer', minimum: 0, description: 'Model calls made for this thread, by every turn, failed ones included.' },
    input_tokens: tokenCount('Input tokens billed at the input price (neither read from nor written to the prompt cache).'),
    output_tokens: tokenCount('Output tokens.'),
    cache_creation_input_tokens: tokenCount('Input tokens written to the prompt cache.'),
    cache_read_input_tokens: tokenCount('Input tokens served from the prompt cache.'),
  },
  required: ['calls', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'],
  additionalProperties: false,
} as const;

export type Usage = FromSchema<typeof usageSchema>;
