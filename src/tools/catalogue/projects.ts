// A project's environments (and their protection) and members.
import { removeMember, setMemberRole } from '../../access/memberships.js';
import { OPERATOR_NAME_PATTERN } from '../../access/operators.js';
import { createEnvironment, describeEnvironment, ENVIRONMENT_NAME_PATTERN, MAX_APPROVALS, setEnvironmentProtection } from '../../domain/projects.js';
import { ROLES } from '../../wire/role.js';
import { reasonProperty, scopeProperties, withInput } from '../types.js';

const projectOnly = {
  type: 'object',
  properties: { project: scopeProperties.project },
  additionalProperties: false,
} as const;

export const projectTools = [
  withInput(projectOnly).define({
    name: 'list_environments',
    description:
      "A project's environments: whether protected, how many approvals a change there requires, and what is live in each (path, revision, deployment number).",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    run: async ({ project }) => {
      const { slug, environments } = project;
      return {
        project: slug,
        environments: environments.map((e) => ({ ...describeEnvironment(e), live: e.live })),
      };
    },
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      name: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN, description: 'lower-case letters, digits, dashes' },
      protected: { type: 'boolean' },
    },
    required: ['name'],
    additionalProperties: false,
  }).define({
    name: 'create_environment',
    description: 'Add an environment to a project. Protected environments need operator or admin to deploy or set secrets.',
    permission: 'environment:manage',
    tag: 'write',
    secretFields: [],
    scope: 'project',
    rows: (input) => [
      { k: 'environment', v: input.name },
      { k: 'protected', v: input.protected ? 'yes' : 'no' },
    ],
    run: async ({ db, project }, input) => {
      const created = await createEnvironment(db, project, { name: input.name, protected: input.protected ?? false });
      return { project: project.slug, environment: created.name, protected: created.protected };
    },
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      environment: scopeProperties.environment,
      protected: { type: 'boolean' },
      approvals_required: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_APPROVALS,
        description: "How many distinct people's word each change there needs, the requester's ask being the first: 2 waits for one other operator's approval, 3 for two.",
      },
      requester_may_approve: { type: 'boolean', description: "Whether a requester's own approval counts as one of those (default false: others approve)." },
      reason: reasonProperty,
    },
    additionalProperties: false,
  }).define({
    name: 'set_environment_protection',
    description:
      'Protect an environment (only operators and admins may deploy or set secrets there) or unprotect it, and set how many approvals its changes require.',
    permission: 'environment:manage',
    tag: 'write',
    secretFields: [],
    scope: 'environment',
    rows: (input) => [
      ...(input.protected === undefined ? [] : [{ k: 'protected', v: input.protected ? 'yes' : 'no' }]),
      ...(input.approvals_required === undefined ? [] : [{ k: 'approvals required', v: String(input.approvals_required) }]),
      ...(input.requester_may_approve === undefined ? [] : [{ k: 'requester may approve', v: input.requester_may_approve ? 'yes' : 'no' }]),
    ],
    run: async ({ db, project, environment }, input) => ({
      project: project.slug,
      ...(await setEnvironmentProtection(db, environment, {
        protected: input.protected,
        approvalsRequired: input.approvals_required,
        requesterMayApprove: input.requester_may_approve,
      })),
    }),
  }),
  withInput(projectOnly).define({
    name: 'list_members',
    description: "A project's members and their roles (viewer, developer, operator, admin).",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    // From the project directory's memory, like the environments: no query.
    run: async ({ project }) => ({ project: project.slug, members: [...project.members] }),
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      operator: { type: 'string', pattern: OPERATOR_NAME_PATTERN },
      role: { type: 'string', enum: ROLES },
    },
    required: ['operator', 'role'],
    additionalProperties: false,
  }).define({
    name: 'set_member_role',
    description: "Add an operator to a project with a role, or change a member's role. The last admin cannot be demoted.",
    permission: 'member:manage',
    tag: 'write',
    secretFields: [],
    scope: 'project',
    rows: (input) => [
      { k: 'operator', v: input.operator },
      { k: 'role', v: input.role },
    ],
    run: async ({ db, project }, input) => ({
      project: project.slug,
      member: await setMemberRole(db, project, input.operator, input.role),
    }),
  }),
  withInput({
    type: 'object',
    properties: { project: scopeProperties.project, operator: { type: 'string', pattern: OPERATOR_NAME_PATTERN } },
    required: ['operator'],
    additionalProperties: false,
  }).define({
    name: 'remove_member',
    description: 'Remove an operator from a project. Never removes the last admin.',
    permission: 'member:manage',
    tag: 'write',
    secretFields: [],
    scope: 'project',
    rows: (input) => [
      { k: 'remove', v: input.operator },
    ],
    run: async ({ db, project }, input) => {
      await removeMember(db, project, input.operator);
      return { project: project.slug, removed: input.operator };
    },
  }),
];
