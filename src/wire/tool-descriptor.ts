// A tool as GET /api/v1/assistant/tools lists it (spec/assistant-and-tools.md).
import type { FromSchema } from 'json-schema-to-ts';

export const toolDescriptorSchema = {
  type: 'object',
  properties: {
    allowed: {
      type: 'boolean',
      description: 'Could this caller run it where the query points? Advisory: the executor checks again.',
    },
    description: { type: 'string' },
    input_schema: { type: 'object', additionalProperties: true, description: 'JSON Schema of the input.' },
    name: { type: 'string' },
    permission: { type: ['string', 'null'] },
    tag: { type: 'string', enum: ['read', 'write'], description: "Drives only the console's Accept gate." },
  },
  required: ['allowed', 'description', 'input_schema', 'name', 'tag'],
  additionalProperties: false,
} as const;

export type ToolDescriptor = FromSchema<typeof toolDescriptorSchema>;
