// Operators: owners create them, each with a first token handed back once;
// owners list them, disable one (history kept, every token refused) and
// enable one again.
import type { FastifyRequest } from 'fastify';
import { createOperator, listOperators, setOperatorDisabled, OPERATOR_NAME_PATTERN, type Operator } from '../../access/operators.js';
import { mintToken } from '../../access/tokens.js';
import { forbidden } from '../../errors.js';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';
import { mintedTokenSchema } from './tokens.js';

const operatorListingSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    owner: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    disabled_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['name', 'owner', 'created_at', 'last_used_at', 'disabled_at'],
  additionalProperties: false,
} as const;

function ownerOf(request: FastifyRequest, doing: string): Operator {
  const caller = operatorOf(request);
  if (!caller.owner) throw forbidden(`only owners can ${doing}; ask an owner of this instance`);
  return caller;
}

export const operatorRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/operators',
    {
      schema: {
        operationId: 'listOperators',
        summary: 'Every operator, disabled ones included (owners only)',
        tags: ['operators'],
        response: { 200: { type: 'array', items: operatorListingSchema }, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      ownerOf(request, 'list operators');
      return listOperators(services.db);
    },
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/operators/:name/${action}`,
      {
        schema: {
          operationId: `${action}Operator`,
          summary:
            action === 'disable'
              ? 'Disable an operator: every token of theirs is refused at once; what they did stays (owners only)'
              : 'Enable a disabled operator again: their tokens work again (owners only)',
          tags: ['operators'],
          params: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 200 } },
            required: ['name'],
          },
          response: { 200: operatorListingSchema, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const caller = ownerOf(request, `${action} operators`);
        const { name } = request.params;
        return setOperatorDisabled(services.db, services.changes, name, action === 'disable', (tx) =>
          services.audit.write(tx, {
            operator: caller.name,
            via: 'rest',
            tool: `operator:${action}`,
            project: null,
            environment: null,
            outcome: 'ok',
            input: { name },
          }),
        );
      },
    );
  }

  app.post(
    '/operators',
    {
      schema: {
        operationId: 'createOperator',
        summary: 'Create an operator with a first token (owners only)',
        tags: ['operators'],
        body: {
          type: 'object',
          properties: {
            name: { type: 'string', pattern: OPERATOR_NAME_PATTERN },
            owner: { type: 'boolean', default: false },
          },
          required: ['name'],
          additionalProperties: false,
        },
        response: {
          201: {
            type: 'object',
            properties: { name: { type: 'string' }, owner: { type: 'boolean' }, token: mintedTokenSchema },
            required: ['name', 'owner', 'token'],
            additionalProperties: false,
          },
          ...errorResponses(401, 403, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const caller = ownerOf(request, 'create operators');
      const { name, owner = false } = request.body;
      const created = await services.db.transaction(async (tx) => {
        const operator = await createOperator(tx, { name, owner });
        const token = await mintToken(tx, { operatorId: operator.id, name: 'first', kind: 'operator' });
        await services.audit.write(tx, {
          operator: caller.name,
          via: 'rest',
          tool: 'operator:create',
          project: null,
          environment: null,
          outcome: 'ok',
          input: { name, owner },
        });
        return { operator, token };
      });
      return reply.code(201).send({ name: created.operator.name, owner: created.operator.owner, token: created.token });
    },
  );
};
