// A configured ACP agent as GET /api/v1/assistant/agents lists it (DESIGN.md §6).
import type { FromSchema } from 'json-schema-to-ts';

export const agentSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    available: { type: 'boolean' },
    sentence: {
      type: 'string',
      description: 'Why it is not available (command not found, its sandbox cannot start, failed to initialize or to open a session); "" when it is.',
    },
    sandboxed: {
      type: 'boolean',
      description: 'False when it runs outside the OS sandbox: the admin set "sandbox": false, or (the demo agent) none can start here.',
    },
  },
  required: ['name', 'title', 'available', 'sentence', 'sandboxed'],
  additionalProperties: false,
} as const;

export type Agent = FromSchema<typeof agentSchema>;
