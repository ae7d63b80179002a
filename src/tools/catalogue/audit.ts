// Reading a project's audit log.
import { CONVERSATION_TOOLS } from '../../conversation/tools.js';
import { AUDIT_OUTCOMES } from '../../wire/audit.js';
import { NAME_LENGTH, scopeProperties, withInput } from '../types.js';
// A cycle (the catalogue lists this tool), read only when the tool runs.
import { CATALOGUE } from './index.js';

/** The tools tagged read: what `changes_only` leaves out. Everything else (writes, proposal decisions, tokens) is a change. */
function readTools(): string[] {
  return [...CATALOGUE, ...CONVERSATION_TOOLS].filter((tool) => tool.tag === 'read').map((tool) => tool.name);
}

export const auditTools = [
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Default 50.' },
      tool: { type: 'string', maxLength: NAME_LENGTH, description: 'Only runs of this tool.' },
      operator: { type: 'string', maxLength: NAME_LENGTH, description: 'Only this operator.' },
      environment: { type: 'string', maxLength: NAME_LENGTH, description: 'Only entries about this environment (deploys, rollbacks, secrets, approvals there).' },
      outcome: { type: 'string', enum: AUDIT_OUTCOMES },
      changes_only: { type: 'boolean', description: 'Leave out reads.' },
      since: { type: 'string', format: 'date-time', description: 'Only entries at or after this time.' },
      until: { type: 'string', format: 'date-time', description: 'Only entries before this time.' },
      before: { type: 'integer', minimum: 1, description: 'Only entries older than this id (paging).' },
    },
    additionalProperties: false,
  }).define({
    name: 'read_audit',
    description:
      "A project's audit log, newest first: who ran which tool, how (console, assistant, mcp, rest), on what, the outcome, and the input with secrets redacted.",
    permission: 'audit:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    run: async ({ project, services }, input) => ({
      project: project.slug,
      entries: await services.audit.list({
        project: project.slug,
        limit: input.limit ?? 50,
        ...(input.tool ? { tool: input.tool } : {}),
        ...(input.operator ? { operator: input.operator } : {}),
        ...(input.environment ? { environment: input.environment } : {}),
        ...(input.outcome ? { outcome: input.outcome } : {}),
        ...(input.changes_only ? { excludeTools: readTools() } : {}),
        ...(input.since ? { since: new Date(input.since) } : {}),
        ...(input.until ? { until: new Date(input.until) } : {}),
        ...(input.before ? { before: input.before } : {}),
      }),
    }),
  }),
];
