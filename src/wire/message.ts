// ThreadMessage, as spec/assistant-and-tools.md writes it, with the answer's
// tool calls and an agent's plan beside the text.
import type { FromSchema } from 'json-schema-to-ts';
import { planEntrySchema, toolCallSchema } from './agent-work.js';

export const threadMessageSchema = {
  type: 'object',
  properties: {
    tool_calls: { type: 'array', items: toolCallSchema, description: "An answer: the tool calls it made, an agent's or the built-in assistant's." },
    plan: { type: 'array', items: planEntrySchema, description: "An agent's answer: its plan." },
    at: { type: 'string' },
    id: { type: 'integer' },
    role: { type: 'string', enum: ['user', 'assistant'] },
    stop_reason: { type: ['string', 'null'] },
    text: { type: 'string', description: 'Every text block of the turn, joined with a blank line.' },
  },
  required: ['at', 'id', 'role', 'text'],
  additionalProperties: false,
} as const;

export type ThreadMessage = FromSchema<typeof threadMessageSchema>;
