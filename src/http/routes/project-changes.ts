// A project's changes as Server-Sent Events, whichever server made them: the
// console reads its documents, deployments, secrets and audit again from
// them. Members only; a member removed meanwhile hears the stream end.
import type { ProjectAccess } from '../../domain/project-access.js';
import type { Services } from '../../services.js';
import type { Topic } from '../../store/changes.js';
import type { ProjectChange } from '../../wire/project-change.js';
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
      const operator = operatorOf(request);
      // A non-member's 404 is answered before the stream opens.
      let project = await services.projects.open(operator, request.params.project);
      const stream = openEventStream(request, reply, `following ${project.slug}`, services.changes.closing);
      const send = (change: ProjectChange) => stream.send({ type: 'change', data: change });
      const changeOf = (topic: Topic): ProjectChange | null => {
        if (topic === `documents:${project.slug}`) return { what: 'documents' };
        if (topic === `project:${project.id}`) return { what: 'project' };
        const environment = project.environments.find((e) => topic === `environment:${e.id}`);
        return environment ? { what: 'environment', environment: environment.name } : null;
      };
      // The project is read again after it changed: its environments, and whether the caller still belongs.
      const reread = async (): Promise<ProjectAccess | null> => services.projects.find(operator, project.slug).catch(() => null);
      const unsubscribe = services.changes.subscribe((topic) => {
        if (topic === '*') return stream.send({ type: 'resync', data: {} });
        const change = changeOf(topic);
        if (!change) return;
        if (change.what !== 'project') return send(change);
        void reread().then((now) => {
          if (!now) return finish();
          project = now;
          send(change);
        });
      });
      const finish = () => {
        unsubscribe();
        stream.end();
      };
      if (stream.closed.aborted) finish();
      else stream.closed.addEventListener('abort', finish, { once: true });
    },
  );
};
