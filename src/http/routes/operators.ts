// Operators: owners create them, each with a first token handed back once.
import { createOperator, OPERATOR_NAME_PATTERN } from '../../access/operators.js';
import { mintToken } from '../../access/tokens.js';
import { forbidden } from '../../errors.js';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';
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
      const caller = operatorOf(request);
      if (!caller.owner) throw forbidden('only owners can create operators; ask an owner of this instance');
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
