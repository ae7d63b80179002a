// Operators: owners create them, each with a first token handed back once;
// owners list them, disable one (history kept, every token refused) and
// enable one again.
import { createOperator, listOperators, setOperatorDisabled, OPERATOR_NAME_PATTERN, type Operator } from '../../access/operators.js';
import { mintToken } from '../../access/tokens.js';
import { perform } from '../../domain/actions.js';
import { forbidden } from '../../errors.js';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';
import { actorOf } from '../invoke.js';
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

/** Why the caller may not act on operators, or null for an owner. */
function ownersOnly(operator: Operator, doing: string): string | null {
  return operator.owner ? null : `only owners can ${doing}; ask an owner of this instance`;
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
      const refusal = ownersOnly(operatorOf(request), 'list operators');
      if (refusal) throw forbidden(refusal);
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
        const actor = actorOf(request);
        const { name } = request.params;
        return perform(services, actor, {
          name: `operator:${action}`,
          input: { name },
          refusal: ownersOnly(actor.operator, `${action} operators`),
          run: (tx, touch) => setOperatorDisabled(tx, touch, name, action === 'disable'),
        });
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
      const actor = actorOf(request);
      const { name, owner = false } = request.body;
      const created = await perform(services, actor, {
        name: 'operator:create',
        input: { name, owner },
        refusal: ownersOnly(actor.operator, 'create operators'),
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
