// Operators: owners create them, each with a first token handed back once.
import { createOperator, OPERATOR_NAME_PATTERN } from '../../access/operators.js';
import { mintToken } from '../../access/tokens.js';
import { perform } from '../../domain/actions.js';
import type { Services } from '../../services.js';
import { actorOf } from '../invoke.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';
import { mintedTokenSchema } from './tokens.js';

export const operatorRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/operators',
    {
      schema: {
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
      const actor = actorOf(request);
      const { name, owner = false } = request.body;
      const created = await perform(services, actor, {
        name: 'operator:create',
        input: { name, owner },
        refusal: actor.operator.owner ? null : 'only owners can create operators; ask an owner of this instance',
        run: async (tx) => {
          const operator = await createOperator(tx, { name, owner });
          const token = await mintToken(tx, { operatorId: operator.id, name: 'first', kind: 'operator' });
          return { operator, token };
        },
      });
      return reply.code(201).send({ name: created.operator.name, owner: created.operator.owner, token: created.token });
    },
  );
};
