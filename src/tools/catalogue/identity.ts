// Who the caller is and what they can see.
import { listProjects } from '../../domain/projects.js';
import { withInput } from '../types.js';

const noInput = { type: 'object', properties: {}, additionalProperties: false } as const;

export const identityTools = [
  withInput(noInput).define({
    name: 'whoami',
    description: 'The caller: operator name, whether an owner, and each project with the role held there. Use first to learn your scope.',
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    run: async ({ operator, services }) => ({
      operator: operator.name,
      owner: operator.owner,
      projects: (await listProjects(services.projects, operator)).map((p) => ({ project: p.slug, role: p.role })),
    }),
  }),
  withInput(noInput).define({
    name: 'list_projects',
    description: "The caller's projects: slug, name, the caller's role, environments (protected or not).",
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    run: async ({ operator, services }) => ({ projects: await listProjects(services.projects, operator) }),
  }),
];
