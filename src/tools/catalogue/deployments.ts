// Deployments of one environment: history, what is live, deploy, rollback.
// A deploy's and a rollback's audit entry names the revision that went live.
import { deploy, listDeployments, liveConfig, rollback } from '../../domain/deployments.js';
import { reasonProperty, scopeProperties, withInput } from '../types.js';
import { pathProperty, revisionProperty } from './documents.js';

/** What a deploy or a rollback's audit entry adds: the deployment and the revision it put live. */
const wentLive = (result: Record<string, unknown>) => ({ deployment: result.deployment, revision: result.revision });

const DEFAULT_LIMIT = 20;

const where = { project: scopeProperties.project, environment: scopeProperties.environment } as const;

export const deploymentTools = [
  withInput({
    type: 'object',
    properties: { ...where, limit: { type: 'integer', minimum: 1, maximum: 100, default: DEFAULT_LIMIT } },
    additionalProperties: false,
  }).define({
    name: 'list_deployments',
    description: "An environment's deployments, newest first: number, path, revision, who, via, when, whether a rollback.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'environment',
    run: async ({ db, project, environment }, input) => ({
      project: project.slug,
      environment: environment.name,
      deployments: await listDeployments(db, environment, input.limit ?? DEFAULT_LIMIT),
    }),
  }),
  withInput({
    type: 'object',
    properties: { ...where, path: pathProperty },
    additionalProperties: false,
  }).define({
    name: 'get_live_config',
    description:
      'What is live in an environment, or at one path: revision, deployment number and content, secret references left unresolved.',
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'environment',
    run: async ({ db, project, environment }, input) => ({
      project: project.slug,
      environment: environment.name,
      live: await liveConfig(db, environment, input.path),
    }),
  }),
  withInput({
    type: 'object',
    properties: { ...where, path: pathProperty, revision: revisionProperty, reason: reasonProperty },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'deploy',
    description:
      'Put a revision (default: current) of a document live in an environment. Refused when check_document finds diagnostics there. Returns the deployment number.',
    permission: 'deploy',
    tag: 'write',
    secretFields: [],
    scope: 'environment',
    rows: (input) => [
      { k: 'path', v: input.path },
      { k: 'revision', v: input.revision === undefined ? 'current' : `r${input.revision}` },
    ],
    made: wentLive,
    run: async ({ db, project, environment, operator, via }, input) => ({
      project: project.slug,
      environment: environment.name,
      ...(await deploy(db, { project, environment, operator, via }, input.path, input.revision)),
    }),
  }),
  withInput({
    type: 'object',
    properties: {
      ...where,
      path: pathProperty,
      revision: { ...revisionProperty, description: 'The revision you expect it to put live again (as a proposal shows it); refused when that is no longer the one live before the current.' },
      reason: reasonProperty,
    },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'rollback',
    description: 'Deploy again the revision of a document that was live in an environment before the current one.',
    permission: 'deploy',
    tag: 'write',
    secretFields: [],
    scope: 'environment',
    rows: (input) => [
      { k: 'path', v: input.path },
      { k: 'revision', v: input.revision === undefined ? 'the one live before the current' : `r${input.revision}, the one live before the current` },
    ],
    made: wentLive,
    run: async ({ db, project, environment, operator, via }, input) => ({
      project: project.slug,
      environment: environment.name,
      ...(await rollback(db, { project, environment, operator, via }, input.path, input.revision)),
    }),
  }),
];
