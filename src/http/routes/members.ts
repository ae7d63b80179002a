// Memberships of one project: members may list them, admins change them.
import { can, refusal } from '../../access/can.js';
import { addMember, listMembers, removeMember, setMemberRole } from '../../access/memberships.js';
import { OPERATOR_NAME_PATTERN } from '../../access/operators.js';
import { openProject, type ProjectAccess } from '../../domain/projects.js';
import { forbidden } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { operatorOf } from '../auth.js';
import { errorResponses, projectParams, roleSchema, type RoutePlugin } from '../schemas.js';

const memberSchema = {
  type: 'object',
  properties: { operator: { type: 'string' }, role: roleSchema },
  required: ['operator', 'role'],
  additionalProperties: false,
} as const;

const memberParams = {
  type: 'object',
  properties: { project: { type: 'string', maxLength: 200 }, operator: { type: 'string', maxLength: 200 } },
  required: ['project', 'operator'],
  additionalProperties: false,
} as const;

const operatorName = { type: 'string', pattern: OPERATOR_NAME_PATTERN } as const;

function mustManage(project: ProjectAccess): ProjectAccess {
  if (!can(project.role, 'member:manage')) throw forbidden(refusal(project.role, 'member:manage', project.slug));
  return project;
}

export const memberRoutes: RoutePlugin<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/projects/:project/members',
    {
      schema: {
        summary: "A project's members and their roles",
        tags: ['members'],
        params: projectParams,
        response: { 200: { type: 'array', items: memberSchema }, ...errorResponses(401, 404) },
      },
    },
    async (request) => listMembers(db, (await openProject(db, operatorOf(request), request.params.project)).id),
  );

  app.post(
    '/projects/:project/members',
    {
      schema: {
        summary: 'Add a member (admins)',
        tags: ['members'],
        params: projectParams,
        body: {
          type: 'object',
          properties: { operator: operatorName, role: roleSchema },
          required: ['operator', 'role'],
          additionalProperties: false,
        },
        response: { 201: memberSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const project = mustManage(await openProject(db, operatorOf(request), request.params.project));
      return reply.code(201).send(await addMember(db, project, request.body.operator, request.body.role));
    },
  );

  app.put(
    '/projects/:project/members/:operator',
    {
      schema: {
        summary: "Add a member or change a member's role (admins)",
        tags: ['members'],
        params: memberParams,
        body: {
          type: 'object',
          properties: { role: roleSchema },
          required: ['role'],
          additionalProperties: false,
        },
        response: { 200: memberSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const project = mustManage(await openProject(db, operatorOf(request), request.params.project));
      return setMemberRole(db, project, request.params.operator, request.body.role);
    },
  );

  app.delete(
    '/projects/:project/members/:operator',
    {
      schema: {
        summary: 'Remove a member, never the last admin (admins)',
        tags: ['members'],
        params: memberParams,
        response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const project = mustManage(await openProject(db, operatorOf(request), request.params.project));
      await removeMember(db, project, request.params.operator);
      return reply.code(204).send(null);
    },
  );
};
