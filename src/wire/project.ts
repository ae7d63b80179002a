// A project as GET and POST /api/v1/projects answer it: its environments and
// the caller's role there.
import type { FromSchema } from 'json-schema-to-ts';
import { roleSchema } from './role.js';

/** The most people a change may need (GitHub's required reviewers stop at six too): more is a team nobody assembles in time. */
export const MAX_APPROVALS = 6;

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
          approvals_required: {
            type: 'integer',
            description: "How many distinct people's word a change there needs, the requester's ask being the first: 1 runs it at once; N > 1 makes it a change request N − 1 other operators approve.",
          },
          requester_may_approve: { type: 'boolean', description: "Whether a requester's own approval counts as one of those N − 1 (false: it never does)." },
        },
        required: ['name', 'protected', 'approvals_required', 'requester_may_approve'],
        additionalProperties: false,
      },
    },
  },
  required: ['slug', 'name', 'role', 'environments'],
  additionalProperties: false,
} as const;

export type Project = FromSchema<typeof projectSchema>;
