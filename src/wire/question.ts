// An ACP agent's question to the operator (elicitation, form mode) as the
// conversation shows it: a message and the fields of a small form, each of a
// kind the console renders; and the answer POST …/questions/{id} carries.
import type { FromSchema } from 'json-schema-to-ts';

const fieldValue = { type: ['string', 'number', 'boolean', 'array'], items: { type: 'string' } } as const;

export const questionFieldSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: ['string', 'null'] },
    type: { enum: ['string', 'number', 'integer', 'boolean', 'choice', 'choices'], description: 'choice: one of `options`; choices: any of them.' },
    required: { type: 'boolean' },
    options: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: { value: { type: 'string' }, title: { type: 'string' } },
        required: ['value', 'title'],
        additionalProperties: false,
      },
    },
    min: { type: ['number', 'null'], description: 'The least value, length or number of choices.' },
    max: { type: ['number', 'null'], description: 'The greatest value, length or number of choices.' },
    default: { ...fieldValue, type: ['string', 'number', 'boolean', 'array', 'null'] },
  },
  required: ['name', 'title', 'description', 'type', 'required', 'options', 'min', 'max', 'default'],
  additionalProperties: false,
} as const;

export const questionSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    message: { type: 'string' },
    fields: { type: 'array', items: questionFieldSchema },
  },
  required: ['id', 'message', 'fields'],
  additionalProperties: false,
} as const;

export type Question = FromSchema<typeof questionSchema>;
export type QuestionField = Question['fields'][number];

export const QUESTION_OUTCOMES = ['accepted', 'declined', 'cancelled'] as const;

export const questionAnswerSchema = {
  oneOf: [
    {
      type: 'object',
      properties: {
        action: { const: 'accept' },
        content: { type: 'object', additionalProperties: fieldValue, maxProperties: 50, description: 'A value for each field, by name.' },
      },
      required: ['action', 'content'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { action: { const: 'decline' } },
      required: ['action'],
      additionalProperties: false,
    },
  ],
} as const;

export type QuestionAnswer = FromSchema<typeof questionAnswerSchema>;
export type QuestionContent = Extract<QuestionAnswer, { action: 'accept' }>['content'];
