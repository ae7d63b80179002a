// A change in one project, as its change stream announces it, so a console
// showing the project reads again what changed: its documents, an
// environment's deployments and secrets, or the project itself (members,
// roles, environments). Every such change also wrote an audit entry.
import type { FromSchema } from 'json-schema-to-ts';

export const projectChangeSchema = {
  oneOf: [
    {
      type: 'object',
      properties: { what: { const: 'documents' } },
      required: ['what'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { what: { const: 'environment' }, environment: { type: 'string' } },
      required: ['what', 'environment'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { what: { const: 'project' } },
      required: ['what'],
      additionalProperties: false,
    },
  ],
} as const;

export type ProjectChange = FromSchema<typeof projectChangeSchema>;
