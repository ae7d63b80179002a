// Change requests (DESIGN.md §13): listed, read, followed as they change, and
// decided. Deciding runs the catalogue's deciding tools through the executor,
// as every client's does; a session credential is told it may not decide
// (403), rather than that its token is bad.
import type { preHandlerHookHandler } from 'fastify';
import { forbidden } from '../../errors.js';
import type { Services } from '../../services.js';
import { changeRequestResponseSchema, CHANGE_REQUEST_STATUSES } from '../../wire/change-request.js';
import { operatorOf } from '../auth.js';
import { invoke } from '../invoke.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 100 } },
  required: ['id'],
} as const;

const COMMENT_LENGTH = 2000;

const listQuery = {
  type: 'object',
  properties: {
    for: { type: 'string', enum: ['me'], description: '`me`: only those waiting for the caller to approve (pending, asked by someone else, the caller holding their permission); a stale one is listed with `stale: true`, and approving it is refused.' },
    by: { type: 'string', enum: ['me'], description: '`me`: only those the caller asked for.' },
    project: { type: 'string', maxLength: 200, description: 'Only this project (its slug).' },
    status: { type: 'string', enum: CHANGE_REQUEST_STATUSES },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  },
  additionalProperties: false,
} as const;

/** Deciding is a person's act: a session credential (an agent's) reaches these routes only to hear so. */
const refuseSessions: preHandlerHookHandler = async (request) => {
  if (request.caller?.kind === 'session') {
    throw forbidden("deciding a change request is a person's act, and this is a conversation's session credential; approve or decline it with your own token");
  }
};

export const changeRequestRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const tags = ['change requests'];

  app.get(
    '/change-requests',
    {
      schema: {
        operationId: 'listChangeRequests',
        summary: 'Change requests of the projects the caller belongs to, newest first: waiting for me, asked by me, or all of a project',
        tags,
        querystring: listQuery,
        response: { 200: { type: 'array', items: changeRequestResponseSchema }, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { for: waitingFor, by, project, status, limit } = request.query;
      return services.changeRequests.list(operatorOf(request), {
        waitingForMe: waitingFor === 'me',
        askedByMe: by === 'me',
        ...(project === undefined ? {} : { project }),
        ...(status === undefined ? {} : { status }),
        limit,
      });
    },
  );

  app.get(
    '/change-requests/:id',
    {
      schema: {
        operationId: 'getChangeRequest',
        summary: 'One change request: what would run and where, who asked and why, the diff from live, the check, its status',
        tags,
        params: idParams,
        response: { 200: changeRequestResponseSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => services.changeRequests.view(operatorOf(request), request.params.id),
  );

  app.post(
    '/change-requests/:id/approve',
    {
      config: { accepts: ['operator', 'session'] },
      preHandler: refuseSessions,
      schema: {
        operationId: 'approveChangeRequest',
        summary: "Approve another operator's change request: it runs once, as its requester, with both permissions checked again",
        description:
          '403: the caller asked for it, lacks its permission there, or is a session credential; 409: decided already, stale (what it would change moved), expired, or not the one the `fingerprint` names. A change that ran and failed is a 200 with status `failed`.',
        tags,
        params: idParams,
        body: {
          type: 'object',
          properties: {
            comment: { type: 'string', maxLength: COMMENT_LENGTH },
            fingerprint: { type: 'string', maxLength: 200, description: 'The request\'s `fingerprint` as the approver read it: another is refused (409).' },
          },
          additionalProperties: false,
        },
        response: { 200: changeRequestResponseSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      await invoke(services, request, 'approve_change_request', { id: request.params.id, ...request.body });
      return services.changeRequests.view(operatorOf(request), request.params.id);
    },
  );

  app.post(
    '/change-requests/:id/decline',
    {
      config: { accepts: ['operator', 'session'] },
      preHandler: refuseSessions,
      schema: {
        operationId: 'declineChangeRequest',
        summary: 'Decline a change request with a comment; nothing runs. The requester declining their own withdraws it',
        tags,
        params: idParams,
        body: {
          type: 'object',
          properties: { comment: { type: 'string', minLength: 1, maxLength: COMMENT_LENGTH, description: 'Why, for the requester.' } },
          required: ['comment'],
          additionalProperties: false,
        },
        response: { 200: changeRequestResponseSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      await invoke(services, request, 'decline_change_request', { id: request.params.id, comment: request.body.comment });
      return services.changeRequests.view(operatorOf(request), request.params.id);
    },
  );
};
