// A change request as the routes and the tools answer it (DESIGN.md §13): what
// would run and where, who asked and why, what would change and the checker's
// verdict, its status in a sentence, and what the caller may do with it.
import type { FromSchema } from 'json-schema-to-ts';
import { changeRequestStatusSchema } from './change-request-status.js';
import { proposalRowSchema } from './proposal.js';

export { CHANGE_REQUEST_STATUSES, type ChangeRequestStatus } from './change-request-status.js';

const diagnosticSchema = {
  type: 'object',
  properties: { line: { type: 'integer' }, column: { type: 'integer' }, message: { type: 'string' } },
  required: ['line', 'column', 'message'],
  additionalProperties: false,
} as const;

const fromTo = <const S extends object>(value: S) =>
  ({ type: 'object', properties: { from: value, to: value }, required: ['from', 'to'], additionalProperties: false }) as const;

/** What would change, as it stood when the request was made: what an approver reviews, and what staleness compares. */
export const changeSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'A deploy or a rollback of one document.',
      properties: {
        kind: { const: 'document' },
        path: { type: 'string' },
        rollback: { type: 'boolean' },
        live: {
          type: ['object', 'null'],
          description: 'What was live at the path when asked; null when nothing was.',
          properties: { revision: { type: 'integer' }, deployment: { type: 'integer' } },
          required: ['revision', 'deployment'],
          additionalProperties: false,
        },
        revision: { type: 'integer', description: 'The revision it would put live.' },
        current_revision: { type: 'integer', description: "The document's newest revision when asked." },
        pinned: { type: 'boolean', description: 'The request named its revision; otherwise it deploys the newest, and a newer one makes it stale.' },
        diff: { type: 'string', description: 'Unified diff from what is live to what would be.' },
      },
      required: ['kind', 'path', 'rollback', 'live', 'revision', 'current_revision', 'pinned', 'diff'],
      additionalProperties: false,
    },
    {
      type: 'object',
      description: 'Setting or deleting a secret: its name, never its value.',
      properties: {
        kind: { const: 'secret' },
        name: { type: 'string' },
        action: { type: 'string', enum: ['set', 'delete'] },
        version: { type: ['integer', 'null'], description: 'Its version when asked; null when it was not set.' },
      },
      required: ['kind', 'name', 'action', 'version'],
      additionalProperties: false,
    },
    {
      type: 'object',
      description: "The environment's protection.",
      properties: {
        kind: { const: 'protection' },
        protected: fromTo({ type: 'boolean' }),
        approvals_required: fromTo({ type: 'integer' }),
        /** Absent from requests asked before the setting existed. */
        requester_may_approve: fromTo({ type: 'boolean' }),
      },
      required: ['kind', 'protected', 'approvals_required'],
      additionalProperties: false,
    },
  ],
} as const;

export const verdictSchema = {
  type: ['object', 'null'],
  description: "The checker's verdict on what a document change would put live, for the environment; null for other changes.",
  properties: { ok: { type: 'boolean' }, diagnostics: { type: 'array', items: diagnosticSchema } },
  required: ['ok', 'diagnostics'],
  additionalProperties: false,
} as const;

export const approvalSchema = {
  type: 'object',
  properties: {
    by: { type: 'string' },
    comment: { type: ['string', 'null'] },
    at: { type: 'string', format: 'date-time' },
    dismissed_because: { type: ['string', 'null'], description: 'Why it no longer counts (what it approved moved); null while it counts.' },
  },
  required: ['by', 'comment', 'at', 'dismissed_because'],
  additionalProperties: false,
} as const;

export const changeRequestResponseSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    fingerprint: { type: 'string', description: 'A hash of what would run and what it would change: approving may send it back, and another is refused (409).' },
    project: { type: 'string' },
    environment: { type: 'string' },
    tool: { type: 'string' },
    input: { type: 'object', additionalProperties: true, description: 'What would run, secret values replaced by `[redacted]`.' },
    rows: { type: 'array', items: proposalRowSchema },
    permission: { type: 'string', description: 'What the requester and the approver must both hold in the environment.' },
    requested_by: { type: 'string' },
    via: { type: 'string', description: 'How it was asked: `console`, `assistant`, `mcp` or `rest`.' },
    reason: { type: ['string', 'null'], description: "Why: the thread's last message for a proposal, or the reason the caller gave." },
    thread: { type: ['string', 'null'], description: 'The conversation whose proposal asked.' },
    proposal: { type: ['string', 'null'], description: 'The proposal that waits on it.' },
    change: changeSchema,
    verdict: verdictSchema,
    status: changeRequestStatusSchema,
    stale: {
      type: 'boolean',
      description: 'It can no longer run as asked (what it would change moved): marked the moment that happens, while it is still pending, and approving it is refused (409).',
    },
    stale_reason: { type: ['string', 'null'], description: 'What moved, in a sentence; null while it is not stale.' },
    sentence: { type: 'string', description: 'The status in words, for anyone reading it.' },
    approvals_required: {
      type: 'integer',
      description: "How many distinct people's word its environment requires now, the requester's ask being the first: it runs once N − 1 approvals are in.",
    },
    approvals: {
      type: 'array',
      description: 'Who approved it (recorded by the server from their credential), oldest first, with those dismissed when what it changes moved.',
      items: approvalSchema,
    },
    decided_by: { type: ['string', 'null'] },
    comment: { type: ['string', 'null'] },
    result: { type: ['object', 'null'], additionalProperties: true, description: "The change's result once approved; {error} when it failed or went stale." },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
    decided_at: { type: ['string', 'null'] },
    can_approve: { type: 'boolean', description: 'Whether the caller may approve it now. Advisory: approving checks again.' },
    can_decline: { type: 'boolean', description: 'Whether the caller may decline it now (the requester withdraws it).' },
    refusal: { type: ['string', 'null'], description: 'Why the caller may not approve it, while it is pending.' },
  },
  required: [
    'id',
    'fingerprint',
    'project',
    'environment',
    'tool',
    'input',
    'rows',
    'permission',
    'requested_by',
    'via',
    'reason',
    'thread',
    'proposal',
    'change',
    'verdict',
    'status',
    'stale',
    'stale_reason',
    'sentence',
    'approvals_required',
    'approvals',
    'decided_by',
    'comment',
    'result',
    'created_at',
    'expires_at',
    'decided_at',
    'can_approve',
    'can_decline',
    'refusal',
  ],
  additionalProperties: false,
} as const;

/** A change request's change, as its change stream announces it: read it again with GET /change-requests/{id}. */
export const changeRequestChangeSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    project: { type: 'string' },
    status: changeRequestStatusSchema,
  },
  required: ['id', 'project', 'status'],
  additionalProperties: false,
} as const;

export type Change = FromSchema<typeof changeSchema>;
export type Verdict = FromSchema<typeof verdictSchema>;
export type Approval = FromSchema<typeof approvalSchema>;
export type ChangeRequestResponse = FromSchema<typeof changeRequestResponseSchema>;
export type ChangeRequestChange = FromSchema<typeof changeRequestChangeSchema>;
