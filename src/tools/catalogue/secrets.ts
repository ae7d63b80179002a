// Secrets of an environment: names and versions to read, values only to write.
import { deleteSecret, listSecrets, SECRET_NAME_PATTERN, setSecret } from '../../domain/secrets.js';
import { reasonProperty, scopeProperties, withInput } from '../types.js';

const secretName = { type: 'string', pattern: SECRET_NAME_PATTERN, description: 'Upper-case letters, digits, _.' } as const;

export const secretTools = [
  withInput({
    type: 'object',
    properties: { ...scopeProperties },
    additionalProperties: false,
  }).define({
    name: 'list_secrets',
    description: "An environment's secrets: name, version, who set it and when. Values are never shown.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'environment',
    run: async ({ db, project, environment }) => ({
      project: project.slug,
      environment: environment.name,
      secrets: await listSecrets(db, environment.id),
    }),
  }),
  withInput({
    type: 'object',
    properties: {
      ...scopeProperties,
      name: secretName,
      value: { type: 'string', maxLength: 65536, description: 'The value; at most 64 KiB. Never echoed back.' },
      reason: reasonProperty,
    },
    required: ['name', 'value'],
    additionalProperties: false,
  }).define({
    name: 'set_secret',
    description: 'Set a secret of an environment (creates it or bumps its version). Documents refer to it as ${secret:NAME}.',
    permission: 'secret:write',
    tag: 'write',
    // Documents and secrets are not what the project directory holds.
    reshapesProject: false,
    scope: 'environment',
    secretFields: ['value'],
    rows: (input) => [
      { k: 'secret', v: input.name },
      { k: 'value', v: '••••••••' },
    ],
    run: async ({ db, project, environment, operator, services }, input) => ({
      project: project.slug,
      environment: environment.name,
      secret: await setSecret(db, services.secretBox, { environment, name: input.name, value: input.value, operator }),
    }),
  }),
  withInput({
    type: 'object',
    properties: { ...scopeProperties, name: secretName, reason: reasonProperty },
    required: ['name'],
    additionalProperties: false,
  }).define({
    name: 'delete_secret',
    description: 'Delete a secret. Refused while a document live in that environment refers to it.',
    permission: 'secret:write',
    tag: 'write',
    secretFields: [],
    // Documents and secrets are not what the project directory holds.
    reshapesProject: false,
    scope: 'environment',
    rows: (input) => [
      { k: 'delete secret', v: input.name },
    ],
    run: async ({ db, project, environment }, input) => {
      await deleteSecret(db, environment, input.name);
      return { project: project.slug, environment: environment.name, deleted: input.name };
    },
  }),
];
