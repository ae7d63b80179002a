// A member's role in a project, as the routes answer and take it.
import type { FromSchema } from 'json-schema-to-ts';

/** From least to most allowed. */
export const ROLES = ['viewer', 'developer', 'operator', 'admin'] as const;

export const roleSchema = { type: 'string', enum: ROLES } as const;

export type Role = FromSchema<typeof roleSchema>;
