// A proposal as the thread answers it: ProposalResponse and its ProposalRow,
// as spec/assistant-and-tools.md writes them, with what Aion adds: the change
// request an accepted proposal waits on where two approvals are required.
import type { FromSchema } from 'json-schema-to-ts';
import { changeRequestStatusSchema } from './change-request-status.js';

export const proposalRowSchema = {
  type: 'object',
  properties: { k: { type: 'string' }, v: { type: 'string' } },
  required: ['k', 'v'],
  additionalProperties: false,
} as const;

const proposalChangeRequestSchema = {
  type: ['object', 'null'],
  description:
    'Beyond the spec: accepted where two approvals are required, the proposal stays pending and names the change request a second operator decides; null otherwise.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: changeRequestStatusSchema,
    sentence: { type: 'string', description: 'What it waits for, or how it was decided, in words.' },
  },
  required: ['id', 'status', 'sentence'],
  additionalProperties: false,
} as const;

export const proposalResponseSchema = {
  type: 'object',
  properties: {
    change_request: proposalChangeRequestSchema,
    decided_at: { type: ['string', 'null'] },
    environment: { type: 'string' },
    id: { type: 'string', format: 'uuid' },
    message_id: { type: 'integer' },
    permission: { type: 'string' },
    project: { type: ['string', 'null'] },
    result: { type: 'object', additionalProperties: true, description: 'Present once decided. {"error": "…"} on a rejection or a failure.' },
    rows: { type: 'array', items: proposalRowSchema },
    status: { type: 'string', enum: ['pending', 'accepted', 'rejected', 'failed'] },
    tag: { type: 'string', enum: ['read', 'write'] },
    title: { type: 'string' },
    tool: { type: 'string' },
  },
  required: ['change_request', 'environment', 'id', 'message_id', 'permission', 'result', 'rows', 'status', 'tag', 'title', 'tool'],
  additionalProperties: false,
} as const;

export type ProposalRow = FromSchema<typeof proposalRowSchema>;
export type ProposalResponse = FromSchema<typeof proposalResponseSchema>;
