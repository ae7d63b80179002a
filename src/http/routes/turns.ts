// A running turn, agent or built-in: cancel it, or follow it as Server-Sent
// Events (started, text deltas, tool calls, plan, proposals, ended).
import type { TurnEvent } from '../../assistant/events.js';
import { findThread } from '../../assistant/threads.js';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';
import { errorResponses, type RoutePlugin, threadParams } from '../schemas.js';


/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

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
            properties: { cancelled: { type: 'boolean', description: 'False when no turn of this thread runs on this server.' } },
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
        summary: "Server-Sent Events of the thread's next (or running) turn, until it ends",
        tags,
        params: threadParams,
        produces: ['text/event-stream'],
        response: { 200: { type: 'string', description: 'text/event-stream: started, text, tool_call, plan, proposal, ended' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const thread = await findThread(services.db, operatorOf(request), request.params.id);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': request.id,
      });
      out.write(': following this thread\'s turn\n\n');
      const keepalive = setInterval(() => out.write(': keepalive\n\n'), KEEPALIVE_MS);
      const stop = services.events.listen(thread.id, (event: TurnEvent) => {
        out.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        if (event.type === 'ended') finish();
      });
      const finish = () => {
        clearInterval(keepalive);
        stop();
        out.end();
      };
      request.raw.once('close', finish);
    },
  );
};
