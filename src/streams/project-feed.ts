// A project's changes, whichever server made them: the console reads its
// documents, deployments, secrets and audit again from them. Members only;
// a member removed meanwhile hears the feed end.
import type { Operator } from '../access/operators.js';
import type { ProjectAccess } from '../domain/project-access.js';
import type { Services } from '../services.js';
import type { Topic } from '../store/changes.js';
import type { ProjectChange } from '../wire/project-change.js';
import type { Feed } from './feed.js';

/** The project's feed; a non-member's 404 is thrown here, before anything is sent. */
export async function openProjectFeed(services: Services, operator: Operator, slug: string): Promise<Feed> {
  let project = await services.projects.open(operator, slug);
  return (send, closed) =>
    new Promise<void>((resolve) => {
      const changeOf = (topic: Topic): ProjectChange | null => {
        if (topic === `documents:${project.slug}`) return { what: 'documents' };
        if (topic === `project:${project.id}`) return { what: 'project' };
        const environment = project.environments.find((e) => topic === `environment:${e.id}`);
        return environment ? { what: 'environment', environment: environment.name } : null;
      };
      // The project is read again after it changed: its environments, and whether the caller still belongs.
      const reread = async (): Promise<ProjectAccess | null> => services.projects.find(operator, project.slug).catch(() => null);
      const unsubscribe = services.changes.subscribe((topic) => {
        if (topic === '*') return send({ type: 'resync', data: {} });
        const change = changeOf(topic);
        if (!change) return;
        if (change.what !== 'project') return send({ type: 'change', data: change });
        void reread().then((now) => {
          if (!now) return finish();
          project = now;
          send({ type: 'change', data: change });
        });
      });
      function finish() {
        unsubscribe();
        resolve();
      }
      if (closed.aborted) finish();
      else closed.addEventListener('abort', finish, { once: true });
    });
}
