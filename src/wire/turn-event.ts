// What `GET /api/v1/assistant/threads/{id}/events` streams as each event's
// `data`, agent and built-in turns alike: the turn started, text as it comes,
// a tool call (new, or updated by its id), the plan, a proposal made, the end.
import type { FromSchema } from 'json-schema-to-ts';
import { planEntrySchema, toolCallSchema } from './agent-work.js';

export const turnEventSchema = {
  oneOf: [
    {
      type: 'object',
      properties: { type: { const: 'started' } },
      required: ['type'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { const: 'text' }, delta: { type: 'string' } },
      required: ['type', 'delta'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { const: 'tool_call' }, tool_call: toolCallSchema },
      required: ['type', 'tool_call'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { const: 'plan' }, entries: { type: 'array', items: planEntrySchema } },
      required: ['type', 'entries'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'proposal' },
        id: { type: 'string', format: 'uuid' },
        tool: { type: 'string' },
        title: { type: 'string' },
      },
      required: ['type', 'id', 'tool', 'title'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'ended' },
        stop_reason: { type: ['string', 'null'] },
        error: { type: 'string', description: 'Why the turn failed, when it did.' },
      },
      required: ['type', 'stop_reason'],
      additionalProperties: false,
    },
  ],
} as const;

export type TurnEvent = FromSchema<typeof turnEventSchema>;
