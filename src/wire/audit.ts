// An audit entry as `read_audit` answers it: who ran which tool, how, where,
// the outcome, and the input with secrets redacted.
import type { FromSchema } from 'json-schema-to-ts';

export const AUDIT_OUTCOMES = ['ok', 'error', 'refused'] as const;

export const auditRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    operator: { type: ['string', 'null'] },
    via: { type: 'string', description: 'How it was called: `console`, `assistant`, `mcp`, `rest` or `cli`.' },
    tool: { type: 'string' },
    project: { type: ['string', 'null'] },
    environment: { type: ['string', 'null'] },
    thread: { type: ['string', 'null'], description: 'The conversation the call belonged to.' },
    proposal: { type: ['string', 'null'], description: 'The proposal whose accept ran it.' },
    outcome: { type: 'string', enum: AUDIT_OUTCOMES },
    input: {
      description:
        "The input as given, secret values replaced by `[redacted]`. A successful save, deploy or rollback adds `made`: a save's new `revision`; a deploy's or a rollback's `deployment` and the `revision` it put live.",
    },
    error: { type: ['string', 'null'] },
  },
  required: ['id', 'at', 'operator', 'via', 'tool', 'project', 'environment', 'thread', 'proposal', 'outcome', 'input', 'error'],
  additionalProperties: false,
} as const;

export type AuditRecord = FromSchema<typeof auditRecordSchema>;
