// A running turn, agent or built-in: cancel it, or follow it as Server-Sent
// Events (started, text deltas, tool calls, plan, proposals, ended).
import type { Services } from '../../services.js';
import { cursorOf, openTurnFeed } from '../../streams/turn-feed.js';
import { operatorOf } from '../auth.js';
import { openEventStream } from '../event-stream.js';
import { errorResponses, type RoutePlugin, threadParams } from '../schemas.js';

export const turnRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const tags = ['assistant'];

  app.post(
    '/assistant/threads/:id/cancel',
    {
      schema: {
        operationId: 'cancelTurn',
        summary: "Cancel the thread's running turn: an agent gets session/cancel, the built-in assistant's model call is aborted",
        tags,
        params: threadParams,
        response: {
          200: {
            type: 'object',
            properties: { cancelled: { type: 'boolean', description: 'False when no turn of this thread runs, on any server.' } },
            required: ['cancelled'],
            additionalProperties: false,
          },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => ({ cancelled: await services.assistant.cancel(operatorOf(request), request.params.id) }),
  );

  app.get(
    '/assistant/threads/:id/events',
    {
      schema: {
        operationId: 'streamTurnEvents',
        summary:
          "Server-Sent Events of the thread's running turn from its first event (or of the next to start), until it ends, on whichever server it runs; each event has an id, and Last-Event-ID resumes after it",
        tags,
        params: threadParams,
        headers: {
          type: 'object',
          properties: { 'last-event-id': { type: 'string', maxLength: 100, description: 'The id of the last event received: the stream goes on after it.' } },
        },
        produces: ['text/event-stream'],
        response: { 200: { type: 'string', description: 'text/event-stream: started, text, tool_call, plan, proposal, ended' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const feed = await openTurnFeed(services, operatorOf(request), request.params.id, cursorOf(request.headers['last-event-id']));
      const stream = openEventStream(request, reply, "following this thread's turn", services.changes.closing);
      try {
        await feed(stream.send, stream.closed);
      } catch (error) {
        request.log.error({ err: error }, 'following a turn failed');
      } finally {
        stream.end();
      }
    },
  );
};
