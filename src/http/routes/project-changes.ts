// A project's changes as Server-Sent Events, whichever server made them: the
// console reads its documents, deployments, secrets and audit again from
// them. Members only; a member removed meanwhile hears the stream end.
import type { Services } from '../../services.js';
import { openProjectFeed } from '../../streams/project-feed.js';
import { operatorOf } from '../auth.js';
import { openEventStream } from '../event-stream.js';
import { errorResponses, projectParams, type RoutePlugin } from '../schemas.js';

export const projectChangeRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/projects/:project/changes',
    {
      schema: {
        operationId: 'streamProjectChanges',
        summary:
          "Server-Sent Events of the project's changes, whichever server made them: `change` {what: documents} (a document written or deleted), {what: environment, environment} (a deployment, a rollback or a secret there), {what: project} (members, roles, environments); `resync` when changes may have been missed (read everything again)",
        tags: ['projects'],
        params: projectParams,
        produces: ['text/event-stream'],
        response: { 200: { type: 'string', description: 'text/event-stream: change, resync' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      // A non-member's 404 is answered before the stream opens.
      const feed = await openProjectFeed(services, operatorOf(request), request.params.project);
      const stream = openEventStream(request, reply, `following ${request.params.project}`, services.changes.closing);
      await feed(stream.send, stream.closed);
      stream.end();
    },
  );
};
