// A project as GET and POST /api/v1/projects answer it: its environments and
// the caller's role there.
import type { FromSchema } from 'json-schema-to-ts';
import { roleSchema } from './role.js';

export const projectSchema = {
  type: 'object',
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    role: roleSchema,
    environments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          protected: { type: 'boolean' },
          approvals_required: { type: 'integer', description: '2: every change there is a change request a second operator approves; 1: it runs at once.' },
        },
        required: ['name', 'protected', 'approvals_required'],
        additionalProperties: false,
      },
    },
  },
  required: ['slug', 'name', 'role', 'environments'],
  additionalProperties: false,
} as const;

export type Project = FromSchema<typeof projectSchema>;
