// The caller's own tokens: list, mint (owners may mint service tokens), revoke.
import { listTokens, mintToken, revokeToken } from '../../access/tokens.js';
import { findEnvironment } from '../../domain/projects.js';
import { perform } from '../../domain/actions.js';
import type { Services } from '../../services.js';
import { TOKEN_KINDS } from '../../store/schema.js';
import { operatorOf } from '../auth.js';
import { actorOf } from '../invoke.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const nullableString = { type: ['string', 'null'] } as const;

export const mintedTokenSchema = {
  type: 'object',
  description: 'The token itself is shown this once; store it now.',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: TOKEN_KINDS },
    token: { type: 'string' },
    created_at: { type: 'string' },
  },
  required: ['id', 'name', 'kind', 'token', 'created_at'],
  additionalProperties: false,
} as const;

const tokenListingSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: TOKEN_KINDS },
    project: nullableString,
    environment: nullableString,
    created_at: { type: 'string' },
    last_used_at: nullableString,
  },
  required: ['id', 'name', 'kind', 'project', 'environment', 'created_at', 'last_used_at'],
  additionalProperties: false,
} as const;

export const tokenRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { db } = services;
  app.get(
    '/tokens',
    {
      schema: {
        operationId: 'listTokens',
        summary: "The caller's live tokens: name, created, last used (never the token)",
        tags: ['tokens'],
        response: { 200: { type: 'array', items: tokenListingSchema }, ...errorResponses(401) },
      },
    },
    (request) => listTokens(db, operatorOf(request).id),
  );

  app.post(
    '/tokens',
    {
      schema: {
        operationId: 'createToken',
        summary: 'Mint a token for the caller, or (owners) a service token for one environment',
        tags: ['tokens'],
        body: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            service: {
              type: 'object',
              description: 'Mint a service token that reads the live configuration of this environment only.',
              properties: { project: { type: 'string', maxLength: 200 }, environment: { type: 'string', maxLength: 200 } },
              required: ['project', 'environment'],
              additionalProperties: false,
            },
          },
          required: ['name'],
          additionalProperties: false,
        },
        response: { 201: mintedTokenSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { operator } = actor;
      const { name, service } = request.body;
      const kind = service ? 'service' : 'operator';
      const refusal = service && !operator.owner ? 'only owners can mint service tokens; ask an owner of this instance' : null;
      const environment = service && !refusal ? findEnvironment(await services.projects.open(operator, service.project), service.environment) : null;
      const minted = await perform(services, actor, {
        name: 'token:create',
        project: service?.project ?? null,
        environment: service?.environment ?? null,
        input: { name, kind },
        refusal,
        run: (tx) => mintToken(tx, { operatorId: operator.id, name, kind, environmentId: environment?.id ?? null }),
        made: (token) => ({ id: token.id }),
      });
      return reply.code(201).send(minted);
    },
  );

  app.delete(
    '/tokens/:id',
    {
      schema: {
        operationId: 'revokeToken',
        summary: 'Revoke one of the caller’s tokens; it is refused from then on',
        tags: ['tokens'],
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        response: { 204: { type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await perform(services, actor, {
        name: 'token:revoke',
        input: { id: request.params.id },
        refusal: null,
        run: (tx, touch) => revokeToken(tx, touch, actor.operator.id, request.params.id),
      });
      return reply.code(204).send(null);
    },
  );
};
