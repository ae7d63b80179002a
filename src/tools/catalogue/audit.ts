// Reading a project's audit log.
import { NAME_LENGTH, scopeProperties, withInput } from '../types.js';

export const auditTools = [
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Default 50.' },
      tool: { type: 'string', maxLength: NAME_LENGTH, description: 'Only runs of this tool.' },
      operator: { type: 'string', maxLength: NAME_LENGTH, description: 'Only this operator.' },
      before: { type: 'integer', minimum: 1, description: 'Only entries older than this id (paging).' },
    },
    additionalProperties: false,
  }).define({
    name: 'read_audit',
    description:
      "A project's audit log, newest first: who ran which tool, how (console, assistant, mcp, rest), on what, the outcome, and the input with secrets redacted.",
    permission: 'audit:read',
    tag: 'read',
    scope: 'project',
    run: async ({ project, services }, input) => ({
      project: project.slug,
      entries: await services.audit.list({
        project: project.slug,
        limit: input.limit ?? 50,
        ...(input.tool ? { tool: input.tool } : {}),
        ...(input.operator ? { operator: input.operator } : {}),
        ...(input.before ? { before: input.before } : {}),
      }),
    }),
  }),
];
