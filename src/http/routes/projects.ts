// Projects: list, read, create. A project the caller is no member of is a 404.
import { createProject, describeProject, listProjects, PROJECT_SLUG_PATTERN } from '../../domain/projects.js';
import type { Services } from '../../services.js';
import { perform } from '../../domain/actions.js';
import { operatorOf } from '../auth.js';
import { actorOf } from '../invoke.js';
import { projectSchema } from '../../wire/project.js';
import { errorResponses, projectParams, type RoutePlugin } from '../schemas.js';

const createBody = {
  type: 'object',
  properties: {
    slug: { type: 'string', pattern: PROJECT_SLUG_PATTERN, description: 'lower-case letters, digits and dashes' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
  },
  required: ['slug'],
  additionalProperties: false,
} as const;

export const projectRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { projects } = services;
  app.get(
    '/projects',
    {
      schema: {
        operationId: 'listProjects',
        summary: "The caller's projects, with their environments and the caller's role",
        tags: ['projects'],
        response: { 200: { type: 'array', items: projectSchema }, ...errorResponses(401) },
      },
    },
    (request) => listProjects(projects, operatorOf(request)),
  );

  app.post(
    '/projects',
    {
      schema: {
        operationId: 'createProject',
        summary: 'Create a project with staging and a protected production (owners only)',
        tags: ['projects'],
        body: createBody,
        response: { 201: projectSchema, ...errorResponses(401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await perform(services, actor, {
        name: 'project:create',
        project: request.body.slug,
        input: request.body,
        refusal: actor.operator.owner ? null : 'only owners can create projects; ask an owner of this instance',
        run: (tx, touch) => createProject(tx, touch, actor.operator, request.body),
      });
      return reply.code(201).send(describeProject(await projects.open(actor.operator, request.body.slug)));
    },
  );

  app.get(
    '/projects/:project',
    {
      schema: {
        operationId: 'getProject',
        summary: "One project with its environments and the caller's role",
        tags: ['projects'],
        params: projectParams,
        response: { 200: projectSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => describeProject(await projects.open(operatorOf(request), request.params.project)),
  );
};
