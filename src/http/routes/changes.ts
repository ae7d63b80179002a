// What changes for the caller, on any server, as one stream of Server-Sent
// Events per tab (a browser holds few connections to a host): their threads
// (the thread list and an open thread refresh from it) and the change
// requests of their projects (the top bar's count and the requests' pages).
import type { Services } from '../../services.js';
import { changesFeed } from '../../streams/changes-feed.js';
import { operatorOf } from '../auth.js';
import { openEventStream } from '../event-stream.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

export const changeRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/changes',
    {
      schema: {
        operationId: 'streamChanges',
        summary:
          "Server-Sent Events of what changes for the caller, whichever server changed it: `thread` {thread, what: message, proposal, decision, turn_started, turn_ended, deleted, updated} for the caller's threads; `change_request` {id, project, status} for the change requests of the caller's projects; `resync` when changes may have been missed (read everything again)",
        tags: ['assistant'],
        produces: ['text/event-stream'],
        response: { 200: { type: 'string', description: 'text/event-stream: thread, change_request, resync' }, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const stream = openEventStream(request, reply, 'following your changes', services.changes.closing);
      await changesFeed(services, operatorOf(request))(stream.send, stream.closed);
      stream.end();
    },
  );
};
