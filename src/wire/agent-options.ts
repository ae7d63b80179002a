// What an ACP agent's session offers to be set (its modes and config options:
// model, reasoning effort, …) as the thread shows them, and what the operator
// may choose: a value that would let the agent act without asking is shown
// with the sentence why it is refused.
import type { FromSchema } from 'json-schema-to-ts';

const valueSchema = {
  type: 'object',
  properties: {
    value: { type: ['string', 'boolean'] },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    refused: { type: ['string', 'null'], description: 'Why the operator may not choose it (it would skip approvals); null when they may.' },
  },
  required: ['value', 'name', 'description', 'refused'],
  additionalProperties: false,
} as const;

export const agentOptionsSchema = {
  type: ['object', 'null'],
  description: "The modes and config options the agent's session offers, as it last said (null until its session first opens); a choice shows at once and is applied at the next turn's start.",
  properties: {
    mode: {
      type: ['object', 'null'],
      description: 'Its session modes; null when it has none.',
      properties: { current: { type: 'string' }, values: { type: 'array', items: valueSchema } },
      required: ['current', 'values'],
      additionalProperties: false,
    },
    options: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          category: { type: ['string', 'null'], description: 'mode, model, thought_level, … as the agent says.' },
          type: { enum: ['select', 'boolean'] },
          current: { type: ['string', 'boolean'] },
          values: { type: 'array', items: valueSchema },
        },
        required: ['id', 'name', 'description', 'category', 'type', 'current', 'values'],
        additionalProperties: false,
      },
    },
  },
  required: ['mode', 'options'],
  additionalProperties: false,
} as const;

export type AgentOptions = NonNullable<FromSchema<typeof agentOptionsSchema>>;
export type AgentOptionValue = AgentOptions['options'][number]['values'][number];

/** The body of PUT …/agent-options: a mode, or one option's value. */
export const agentChoiceSchema = {
  oneOf: [
    {
      type: 'object',
      properties: { mode: { type: 'string', minLength: 1, maxLength: 500 } },
      required: ['mode'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { option: { type: 'string', minLength: 1, maxLength: 500 }, value: { type: ['string', 'boolean'], maxLength: 500 } },
      required: ['option', 'value'],
      additionalProperties: false,
    },
  ],
} as const;

export type AgentChoice = FromSchema<typeof agentChoiceSchema>;
