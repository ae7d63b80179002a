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
    'Beyond the spec: accepted where approvals are required, the proposal is `requested` and names the change request other operators decide; null otherwise.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: changeRequestStatusSchema,
    sentence: { type: 'string', description: 'What it waits for, or how it was decided, in words.' },
    stale: { type: 'boolean', description: 'It can no longer run as asked: what it would change moved.' },
    stale_reason: { type: ['string', 'null'], description: 'What moved, in a sentence; null while it is not stale.' },
  },
  required: ['id', 'status', 'sentence', 'stale', 'stale_reason'],
  additionalProperties: false,
} as const;

export const proposalResponseSchema = {
  type: 'object',
  properties: {
    change_request: proposalChangeRequestSchema,
    decided_at: { type: ['string', 'null'] },
    environment: { type: 'string' },
    fingerprint: {
      type: 'string',
      description: 'Beyond the spec: a hash of its tool, input (a deploy\'s or rollback\'s pinned revision in it) and rows. Accept may send it back; a proposal that is not the one seen is refused (409).',
    },
    id: { type: 'string', format: 'uuid' },
    message_id: { type: 'integer' },
    permission: { type: 'string' },
    project: { type: ['string', 'null'] },
    result: { type: 'object', additionalProperties: true, description: 'Present once decided (absent while it waits). {"error": "…"} on a rejection or a failure.' },
    rows: { type: 'array', items: proposalRowSchema },
    stale: {
      type: 'boolean',
      description: 'Beyond the spec: it can no longer run as shown — its change request went stale, or (waiting) the document it edits was saved again since.',
    },
    newer_revision: {
      type: ['integer', 'null'],
      description: "Beyond the spec: a waiting deploy pinned to a revision that is no longer its document's newest: that newest, which the console offers to deploy instead; null otherwise.",
    },
    stale_reason: { type: ['string', 'null'], description: 'Beyond the spec: what moved, in a sentence; null while it is not stale.' },
    requested: {
      type: 'boolean',
      description:
        'Beyond the spec: accepted by its operator where approvals are required, and waiting on its change request (`status` reads `accepted`: the operator decided). It then ends `accepted` with the result, `rejected` (declined) or `failed` (expired, stale).',
    },
    status: { type: 'string', enum: ['pending', 'accepted', 'rejected', 'failed'] },
    tag: { type: 'string', enum: ['read', 'write'] },
    title: { type: 'string' },
    tool: { type: 'string' },
  },
  required: ['change_request', 'environment', 'fingerprint', 'id', 'message_id', 'permission', 'rows', 'requested', 'stale', 'stale_reason', 'newer_revision', 'status', 'tag', 'title', 'tool'],
  additionalProperties: false,
} as const;

export type ProposalRow = FromSchema<typeof proposalRowSchema>;
export type ProposalResponse = FromSchema<typeof proposalResponseSchema>;
