// A change to one of the operator's threads, as the change stream announces
// it, so every tab on every server follows the thread.
import type { FromSchema } from 'json-schema-to-ts';

export const THREAD_CHANGE_KINDS = ['message', 'proposal', 'decision', 'turn_started', 'turn_ended', 'deleted', 'updated'] as const;

export const threadChangeSchema = {
  type: 'object',
  properties: {
    thread: { type: 'string', format: 'uuid' },
    what: { type: 'string', enum: THREAD_CHANGE_KINDS },
  },
  required: ['thread', 'what'],
  additionalProperties: false,
} as const;

export type ThreadChange = FromSchema<typeof threadChangeSchema>;
