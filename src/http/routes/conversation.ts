// A conversation's shared context (PUT and GET, for the console and for the
// conversation's own session credential) and its session credentials: mint,
// list (never the token) and revoke, for the thread's operator.
import { findThread } from '../../assistant/threads.js';
import { listSessionCredentials, mintSessionCredential, revokeThreadCredential } from '../../conversation/credentials.js';
import type { Services } from '../../services.js';
import { DOCUMENT_BODY_LIMIT } from '../body-limits.js';
import { contextSchema, sharedDocumentSchema } from '../../wire/context.js';
import { conversationOperator, operatorOf } from '../auth.js';
import { actorOf } from '../invoke.js';
import { errorResponses, type RoutePlugin, threadParams } from '../schemas.js';

const MAX_WAIT_SECONDS = 60;
const CONVERSATION = { accepts: ['operator', 'session'] as ('operator' | 'session')[] };

const credentialListingSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    holder: {
      type: 'string',
      enum: ['agent', 'client'],
      description: 'agent: the ACP agent the server started for this thread (renewed with its process); client: minted with POST …/session-credential.',
    },
    created_at: { type: 'string' },
    expires_at: { type: 'string' },
    last_used_at: { type: ['string', 'null'], description: 'Recorded at most once a minute.' },
  },
  required: ['id', 'holder', 'created_at', 'expires_at', 'last_used_at'],
  additionalProperties: false,
} as const;

export const conversationRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { contexts, db } = services;
  const tags = ['conversation'];

  app.put(
    '/assistant/threads/:id/context',
    {
      config: CONVERSATION,
      // The unsaved text of a document, JSON-escaped.
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        operationId: 'shareContext',
        summary: 'Share what the console shows with the conversation, or stop sharing with {"shared": false}',
        tags,
        params: threadParams,
        body: {
          type: 'object',
          properties: {
            shared: { type: 'boolean' },
            url: { type: ['string', 'null'], maxLength: 2000 },
            concepts: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 50 },
            document: sharedDocumentSchema,
            base_revision: { type: 'integer', minimum: 0, description: 'The revision the text was edited on; required when it changes the shared text.' },
          },
          additionalProperties: false,
        },
        response: {
          200: contextSchema,
          409: {
            type: 'object',
            description: 'The text was edited on a stale revision: nothing changed; rebase onto `context`.',
            properties: { error: { type: 'string' }, context: contextSchema },
            required: ['error', 'context'],
            additionalProperties: false,
          },
          ...errorResponses(401, 404, 413, 422),
        },
      },
    },
    async (request, reply) => {
      const thread = await findThread(db, conversationOperator(request, request.params.id), request.params.id);
      const { body } = request;
      const outcome = await contexts.share(thread.id, body.shared === false ? { shared: false } : { ...body, shared: true });
      if ('stale' in outcome) {
        const current = outcome.stale.shared ? outcome.stale.revision : 0;
        return reply.code(409).send({
          error: `the shared text is at revision ${current}, not ${body.base_revision ?? 'none'}; rebase your edits onto it and send again`,
          context: outcome.stale,
        });
      }
      return outcome.view;
    },
  );

  app.get(
    '/assistant/threads/:id/context',
    {
      config: CONVERSATION,
      schema: {
        operationId: 'getContext',
        summary: 'What the conversation sees; with ?after=REV&wait=S, held until the revision passes REV',
        tags,
        params: threadParams,
        querystring: {
          type: 'object',
          properties: {
            after: { type: 'integer', minimum: 0 },
            wait: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS },
          },
          additionalProperties: false,
        },
        response: { 200: contextSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const thread = await findThread(db, conversationOperator(request, request.params.id), request.params.id);
      const { after, wait } = request.query;
      if (after === undefined || !wait) return contexts.read(thread.id);
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      return contexts.waitForRevision(thread.id, after, wait, gone.signal);
    },
  );

  app.post(
    '/assistant/threads/:id/session-credential',
    {
      schema: {
        operationId: 'createSessionCredential',
        summary: 'A credential (aion_ses_…, 12 hours) that serves this conversation on /mcp with your permissions',
        tags,
        params: threadParams,
        response: {
          201: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'As GET …/session-credentials lists it.' },
              token: { type: 'string' },
              thread: { type: 'string' },
              expires_at: { type: 'string' },
            },
            required: ['id', 'token', 'thread', 'expires_at'],
            additionalProperties: false,
          },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const thread = await findThread(db, actor.operator, request.params.id);
      return reply.code(201).send(await mintSessionCredential(services, actor, thread));
    },
  );

  app.get(
    '/assistant/threads/:id/session-credentials',
    {
      schema: {
        operationId: 'listSessionCredentials',
        summary: "The conversation's live session credentials, newest first: created, expires, last used (never the token)",
        tags,
        params: threadParams,
        response: { 200: { type: 'array', items: credentialListingSchema }, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const thread = await findThread(db, operatorOf(request), request.params.id);
      return listSessionCredentials(db, thread.id);
    },
  );

  app.delete(
    '/assistant/threads/:id/session-credentials/:credential',
    {
      schema: {
        operationId: 'revokeSessionCredential',
        summary: "Revoke one of the conversation's session credentials; it is refused from then on",
        tags,
        params: {
          type: 'object',
          properties: { id: { type: 'string', maxLength: 100 }, credential: { type: 'string', maxLength: 100 } },
          required: ['id', 'credential'],
        },
        response: { 204: { type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const thread = await findThread(db, actor.operator, request.params.id);
      await revokeThreadCredential(services, actor, thread, request.params.credential);
      return reply.code(204).send(null);
    },
  );
};
