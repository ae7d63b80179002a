// Memberships of one project: members may list them, admins change them.
// Each route runs the matching tool, so the executor checks and audits it.
import type { Member } from '../../domain/project-access.js';
import { OPERATOR_NAME_PATTERN } from '../../access/operators.js';
import type { Services } from '../../services.js';
import { invoke } from '../invoke.js';
import { roleSchema } from '../../wire/role.js';
import { errorResponses, projectParams, type RoutePlugin } from '../schemas.js';

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
} as const;

type Changed = { member: Member & { added: boolean } };

export const memberRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/projects/:project/members',
    {
      schema: {
        operationId: 'listMembers',
        summary: "A project's members and their roles",
        tags: ['members'],
        params: projectParams,
        response: { 200: { type: 'array', items: memberSchema }, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const result = await invoke(services, request, 'list_members', { project: request.params.project });
      return result.members as Member[];
    },
  );

  app.post(
    '/projects/:project/members',
    {
      schema: {
        operationId: 'addMember',
        summary: 'Add a member (201), or change the role of one (200) (admins)',
        tags: ['members'],
        params: projectParams,
        body: {
          type: 'object',
          properties: { operator: { type: 'string', pattern: OPERATOR_NAME_PATTERN }, role: roleSchema },
          required: ['operator', 'role'],
          additionalProperties: false,
        },
        response: { 200: memberSchema, 201: memberSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { member } = (await invoke(services, request, 'set_member_role', {
        project: request.params.project,
        ...request.body,
      })) as Changed;
      return reply.code(member.added ? 201 : 200).send({ operator: member.operator, role: member.role });
    },
  );

  app.put(
    '/projects/:project/members/:operator',
    {
      schema: {
        operationId: 'setMemberRole',
        summary: "Add a member or change a member's role (admins)",
        tags: ['members'],
        params: memberParams,
        body: { type: 'object', properties: { role: roleSchema }, required: ['role'], additionalProperties: false },
        response: { 200: memberSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { project, operator } = request.params;
      const { member } = (await invoke(services, request, 'set_member_role', {
        project,
        operator,
        role: request.body.role,
      })) as Changed;
      return { operator: member.operator, role: member.role };
    },
  );

  app.delete(
    '/projects/:project/members/:operator',
    {
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member, never the last admin (admins)',
        tags: ['members'],
        params: memberParams,
        response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await invoke(services, request, 'remove_member', { ...request.params });
      return reply.code(204).send(null);
    },
  );
};
