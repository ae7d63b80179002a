// The ACP agents this server is configured with (DESIGN.md §6), for the
// console's "New conversation".
import type { Services } from '../../services.js';
import { agentSchema } from '../../wire/agent.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

export const agentRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/assistant/agents',
    {
      schema: {
        operationId: 'listAgents',
        summary: 'The ACP agents a thread may be held by, and whether each can start',
        tags: ['assistant'],
        response: { 200: { type: 'array', items: agentSchema }, ...errorResponses(401) },
      },
    },
    async () => services.assistant.agents(),
  );
};
