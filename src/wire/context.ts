// What a conversation sees of the console (spec/assistant-conversation-schemas.md,
// assistant_context), as PUT and GET /api/v1/assistant/threads/{id}/context
// answer it; PUT takes the shared document in the same shape.
import type { FromSchema } from 'json-schema-to-ts';

const oneBased = { type: 'integer', minimum: 1 } as const;
const selectionSchema = {
  type: ['object', 'null'],
  properties: { from_line: oneBased, from_column: oneBased, to_line: oneBased, to_column: oneBased },
  required: ['from_line', 'from_column', 'to_line', 'to_column'],
  additionalProperties: false,
} as const;
const cursorSchema = {
  type: ['object', 'null'],
  properties: { line: oneBased, column: oneBased },
  required: ['line', 'column'],
  additionalProperties: false,
} as const;

export const sharedDocumentSchema = {
  type: ['object', 'null'],
  properties: {
    path: { type: 'string', maxLength: 200 },
    text: { type: 'string', description: 'The text including unsaved edits.' },
    selection: selectionSchema,
    cursor: cursorSchema,
  },
  required: ['path', 'text'],
  additionalProperties: false,
} as const;

export const contextSchema = {
  type: 'object',
  properties: {
    shared: { type: 'boolean' },
    url: { type: ['string', 'null'] },
    concepts: { type: 'array', items: { type: 'string' } },
    document: sharedDocumentSchema,
    revision: { type: 'integer' },
  },
  required: ['shared'],
  additionalProperties: false,
} as const;

export type Selection = NonNullable<FromSchema<typeof selectionSchema>>;
export type Cursor = NonNullable<FromSchema<typeof cursorSchema>>;
export type SharedDocument = NonNullable<FromSchema<typeof sharedDocumentSchema>>;

/**
 * `{shared: false}` alone, or every field: the schema requires only `shared`,
 * and the spec's description says the rest comes with `shared: true`.
 */
export type ContextView = { shared: false } | (Required<FromSchema<typeof contextSchema>> & { shared: true });
