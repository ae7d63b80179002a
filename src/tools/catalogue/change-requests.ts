// Change requests (DESIGN.md §13): reading them, for anyone who may see their
// project, the assistant included; deciding them, a person's act that the
// executor refuses to the assistant and to session credentials.
import { CHANGE_REQUEST_STATUSES } from '../../wire/change-request.js';
import { NAME_LENGTH, withInput } from '../types.js';

const id = { type: 'string', maxLength: 100, description: 'The change request id.' } as const;
const COMMENT_LENGTH = 2000;

export const changeRequestTools = [
  withInput({
    type: 'object',
    properties: {
      project: { type: 'string', maxLength: NAME_LENGTH, description: 'Default: all of yours.' },
      waiting_for_me: { type: 'boolean', description: 'Only those you may approve now.' },
      asked_by_me: { type: 'boolean', description: 'Only those you asked for.' },
      status: { type: 'string', enum: CHANGE_REQUEST_STATUSES },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Default 50.' },
    },
    additionalProperties: false,
  }).define({
    name: 'list_change_requests',
    description:
      'Change requests, newest first: changes where an environment requires two approvals, pending or decided, with who asked, why, what would change, status.',
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    run: async ({ operator, services }, input) => ({
      change_requests: await services.changeRequests.list(operator, {
        waitingForMe: input.waiting_for_me ?? false,
        askedByMe: input.asked_by_me ?? false,
        ...(input.project === undefined ? {} : { project: input.project }),
        ...(input.status === undefined ? {} : { status: input.status }),
        limit: input.limit ?? 50,
      }),
    }),
  }),
  withInput({ type: 'object', properties: { id }, required: ['id'], additionalProperties: false }).define({
    name: 'get_change_request',
    description: 'One change request: what would run where, who asked, why, the diff from live, the check, its status.',
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    run: async ({ operator, services }, input) => services.changeRequests.view(operator, input.id),
  }),
  withInput({
    type: 'object',
    properties: {
      id,
      comment: { type: 'string', maxLength: COMMENT_LENGTH },
      fingerprint: { type: 'string', maxLength: 200, description: 'The request\'s fingerprint as you read it: approving another is refused.' },
    },
    required: ['id'],
    additionalProperties: false,
  }).define({
    name: 'approve_change_request',
    description:
      "Approve another operator's change request, which runs the change once. You need its permission there. Never for an assistant: a person decides.",
    permission: null,
    tag: 'write',
    secretFields: [],
    scope: 'none',
    decides: true,
    run: async ({ operator, via, services }, input) => services.changeRequests.approve({ operator, via }, input.id, input.comment ?? null, input.fingerprint),
  }),
  withInput({
    type: 'object',
    properties: { id, comment: { type: 'string', minLength: 1, maxLength: COMMENT_LENGTH, description: 'Why, for the requester.' } },
    required: ['id', 'comment'],
    additionalProperties: false,
  }).define({
    name: 'decline_change_request',
    description: 'Decline a change request with a comment; nothing runs. The requester declining withdraws it. Never for an assistant.',
    permission: null,
    tag: 'write',
    secretFields: [],
    scope: 'none',
    decides: true,
    run: async ({ operator, via, services }, input) => services.changeRequests.decline({ operator, via }, input.id, input.comment),
  }),
];
