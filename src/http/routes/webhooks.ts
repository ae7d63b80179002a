// A project's outgoing webhooks (DESIGN.md §14): admins (environment:manage)
// list, add, change and remove them, read their deliveries and redeliver one.
// A hook's secret is in the answer that adds it, never again. Operator tokens
// only (the default): an agent's session credential is a bad token here.
import type { Services } from '../../services.js';
import { deliverySchema, webhookEventSchema, webhookSchema } from '../../wire/webhook.js';
import { actorOf } from '../invoke.js';
import { errorResponses, projectParams, type RoutePlugin } from '../schemas.js';

const hookParams = {
  type: 'object',
  properties: { project: { type: 'string', maxLength: 200 }, id: { type: 'string', maxLength: 100 } },
  required: ['project', 'id'],
} as const;

const url = { type: 'string', minLength: 1, maxLength: 2000, description: 'Where to post: an http or https address.' } as const;
const events = { type: 'array', items: webhookEventSchema, minItems: 1, maxItems: 20, description: 'The events it follows.' } as const;
const active = { type: 'boolean', description: 'Whether it is sent to (default true).' } as const;

export const webhookRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const tags = ['webhooks'];

  app.get(
    '/projects/:project/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        summary: "A project's outgoing webhooks (admins)",
        tags,
        params: projectParams,
        response: { 200: { type: 'array', items: webhookSchema }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => services.webhooks.list(actorOf(request).operator, request.params.project),
  );

  app.post(
    '/projects/:project/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        summary: 'Add a webhook (admins); the answer holds its signing secret, shown this once',
        tags,
        params: projectParams,
        body: { type: 'object', properties: { url, events, active }, required: ['url', 'events'], additionalProperties: false },
        response: { 201: webhookSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.webhooks.create(actorOf(request), request.params.project, request.body)),
  );

  app.patch(
    '/projects/:project/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        summary: "Change a webhook's url, events or whether it is active (admins)",
        tags,
        params: hookParams,
        body: { type: 'object', properties: { url, events, active }, additionalProperties: false },
        response: { 200: webhookSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => services.webhooks.update(actorOf(request), request.params.project, request.params.id, request.body),
  );

  app.delete(
    '/projects/:project/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Remove a webhook and its deliveries (admins)',
        tags,
        params: hookParams,
        response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await services.webhooks.remove(actorOf(request), request.params.project, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/projects/:project/webhook-deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "A project's webhook deliveries, newest first, with status and tries (admins)",
        tags,
        params: projectParams,
        querystring: {
          type: 'object',
          properties: { webhook: { type: 'string', maxLength: 100, description: 'Only this hook’s.' }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          additionalProperties: false,
        },
        response: { 200: { type: 'array', items: deliverySchema }, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { webhook, limit } = request.query;
      return services.webhooks.deliveries(actorOf(request).operator, request.params.project, { ...(webhook === undefined ? {} : { webhook }), limit });
    },
  );

  app.post(
    '/projects/:project/webhook-deliveries/:id/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again, now, under the same delivery id (admins)',
        tags,
        params: hookParams,
        response: { 200: deliverySchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => services.webhooks.redeliver(actorOf(request), request.params.project, request.params.id),
  );
};
