// What `GET /api/v1/assistant/threads/{id}/events` streams as each event's
// `data`, agent and built-in turns alike: the turn started, text as it comes,
// a tool call (new, or updated by its id), the plan, a proposal made, an
// agent's question and its closing, the end.
import type { FromSchema } from 'json-schema-to-ts';
import { planEntrySchema, toolCallSchema } from './agent-work.js';
import { QUESTION_OUTCOMES, questionSchema } from './question.js';

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
      description: 'The agent asks the operator a question: a form they answer or decline (POST …/questions/{id}) while the turn runs.',
      properties: { type: { const: 'question' }, question: questionSchema },
      required: ['type', 'question'],
      additionalProperties: false,
    },
    {
      type: 'object',
      description: 'The question was answered, declined, or went with the turn.',
      properties: { type: { const: 'question_closed' }, id: { type: 'string', format: 'uuid' }, outcome: { enum: QUESTION_OUTCOMES } },
      required: ['type', 'id', 'outcome'],
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
