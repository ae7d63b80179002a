// What an answer did, as a thread message keeps it and as a running turn
// streams it: its tool calls (an ACP agent's, or the built-in assistant's with
// their input and result) and an agent's plan.
import type { FromSchema } from 'json-schema-to-ts';

export const toolCallSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    kind: { type: 'string' },
    status: { type: 'string' },
    locations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, line: { type: ['integer', 'null'] } },
        required: ['path'],
        additionalProperties: false,
      },
    },
    refused: { type: 'string', description: 'Why Aion refused the call, when it did.' },
    input: { type: 'string', description: "The built-in assistant's calls: the input as JSON, cut to its first 4000 characters." },
    result: { type: 'string', description: "The built-in assistant's calls: what the tool answered, as JSON, cut to its first 4000 characters." },
  },
  required: ['id', 'title', 'kind', 'status', 'locations'],
  additionalProperties: false,
} as const;

export const planEntrySchema = {
  type: 'object',
  properties: { content: { type: 'string' }, priority: { type: 'string' }, status: { type: 'string' } },
  required: ['content', 'priority', 'status'],
  additionalProperties: false,
} as const;

export type ToolCall = FromSchema<typeof toolCallSchema>;
export type PlanEntry = FromSchema<typeof planEntrySchema>;
