// GET /api/v1/assistant/status: whether the built-in assistant is set up.
import type { FromSchema } from 'json-schema-to-ts';

export const assistantStatusSchema = {
  type: 'object',
  properties: {
    configured: { type: 'boolean' },
    model: { type: ['string', 'null'], description: '`anthropic` or `fake`; null when nothing is configured.' },
    sentence: { type: 'string', description: 'The sentence the panel prints when `configured` is false, "" otherwise.' },
  },
  required: ['configured', 'model', 'sentence'],
  additionalProperties: false,
} as const;

export type AssistantStatus = FromSchema<typeof assistantStatusSchema>;
