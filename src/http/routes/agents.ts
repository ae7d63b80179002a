// The ACP agents this server is configured with (DESIGN.md §6), for the
// console's "New conversation".
import type { Services } from '../../services.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const agentSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    available: { type: 'boolean' },
    sentence: {
      type: 'string',
      description: 'Why it is not available (command not found, its sandbox cannot start, failed to initialize or to open a session); "" when it is.',
    },
    sandboxed: {
      type: 'boolean',
      description: 'False when it runs outside the OS sandbox: the admin set "sandbox": false, or (the demo agent) none can start here.',
    },
  },
  required: ['name', 'title', 'available', 'sentence', 'sandboxed'],
  additionalProperties: false,
} as const;

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
