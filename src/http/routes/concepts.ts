// The concept registry the console's screens declare and `explain` returns.
import { CONCEPTS } from '../../domain/concepts.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const conceptSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' }, explanation: { type: 'string' } },
  required: ['id', 'title', 'explanation'],
  additionalProperties: false,
} as const;

export const conceptRoutes: RoutePlugin<Record<never, never>> = async (app) => {
  app.get(
    '/concepts',
    {
      schema: {
        operationId: 'listConcepts',
        summary: 'The concepts of the console, each with a title and a short explanation',
        tags: ['concepts'],
        response: {
          200: {
            type: 'object',
            properties: { concepts: { type: 'array', items: conceptSchema } },
            required: ['concepts'],
            additionalProperties: false,
          },
          ...errorResponses(401),
        },
      },
    },
    async () => ({ concepts: [...CONCEPTS] }),
  );
};
