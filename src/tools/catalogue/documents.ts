// A project's documents: list, read, list revisions, diff, check, write, delete.
import {
  checkForEnvironment,
  deleteDocument,
  diagnosticsByEnvironment,
  diffDocument,
  listDocuments,
  listRevisions,
  readRevision,
  writeDocument,
} from '../../domain/documents.js';
import { scopeProperties, withInput } from '../types.js';

export const pathProperty = { type: 'string', minLength: 1, maxLength: 200, description: 'e.g. app.yaml' } as const;
export const revisionProperty = { type: 'integer', minimum: 1 } as const;

export const documentTools = [
  withInput({
    type: 'object',
    properties: { project: scopeProperties.project },
    additionalProperties: false,
  }).define({
    name: 'list_documents',
    description: "A project's documents: path, current revision, and the revision live in each environment.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    run: async ({ db, project }) => ({ project: project.slug, documents: await listDocuments(db, project) }),
  }),
  withInput({
    type: 'object',
    properties: { project: scopeProperties.project, path: pathProperty, revision: revisionProperty },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'read_document',
    description:
      "A document's text at a revision (default: current), with author and message. Pass its revision as write_document's base_revision.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    run: async ({ db, project }, input) => ({ project: project.slug, ...(await readRevision(db, project, input.path, input.revision)) }),
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      path: pathProperty,
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Default 50.' },
      before: { ...revisionProperty, description: 'Only revisions older than this one (paging).' },
    },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'list_revisions',
    description: "A document's revisions, newest first: number, author, time, size in bytes and message.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project',
    run: async ({ db, project }, input) => ({
      project: project.slug,
      ...(await listRevisions(db, project, input.path, { limit: input.limit ?? 50, before: input.before })),
    }),
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      path: pathProperty,
      from: revisionProperty,
      to: revisionProperty,
      environment: { ...scopeProperties.environment, description: 'Diff from what is live there instead of from.' },
    },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'diff_document',
    description:
      'Unified diff of a document from one revision to another (default: the one before to; to defaults to current), or from what is live in an environment.',
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'project, optional environment',
    run: async ({ db, project, environment }, input) => ({
      project: project.slug,
      ...(await diffDocument(db, project, input.path, { from: input.from, to: input.to, environment })),
    }),
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      environment: scopeProperties.environment,
      path: pathProperty,
      revision: revisionProperty,
      text: { type: 'string', description: 'Checked as if saved at path.' },
    },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'check_document',
    description:
      "Diagnostics (line, column, message) of a revision (default: current) or of text, against the project schema and the environment's secrets. None: it would deploy.",
    permission: 'project:read',
    tag: 'read',
    secretFields: [],
    scope: 'environment',
    run: async ({ db, project, environment }, input) => {
      const checked = await checkForEnvironment(db, project, environment, input);
      return { project: project.slug, environment: environment.name, ...checked, ok: checked.diagnostics.length === 0 };
    },
  }),
  withInput({
    type: 'object',
    properties: {
      project: scopeProperties.project,
      path: pathProperty,
      text: { type: 'string' },
      base_revision: { ...revisionProperty, description: 'The revision you read; required when the document exists.' },
      message: { type: 'string', maxLength: 500, description: 'Why, in a sentence: kept with the revision, shown in its history and the audit.' },
    },
    required: ['path', 'text'],
    additionalProperties: false,
  }).define({
    name: 'write_document',
    description:
      "Save text as a new revision of a document, creating it if new. Refused when base_revision is not the current revision. Returns the new revision and each environment's diagnostics (saved even when there are some).",
    permission: 'document:write',
    tag: 'write',
    secretFields: [],
    // Documents and secrets are not what the project directory holds.
    reshapesProject: false,
    scope: 'project',
    rows: (input) => [
      { k: 'path', v: input.path },
      {
        k: 'revision',
        v: input.base_revision === undefined ? 'r1 (new document)' : `r${input.base_revision + 1} (based on r${input.base_revision})`,
      },
      { k: 'size', v: `${Buffer.byteLength(input.text, 'utf8')} bytes` },
      { k: 'message', v: input.message ?? '' },
      // The proposed text, so a card can show its diff against the stored one.
      { k: 'text', v: input.text },
    ],
    made: (result) => ({ revision: result.revision }),
    run: async ({ db, project, operator }, input) => ({
      project: project.slug,
      ...(await writeDocument(db, project, operator, input)),
      diagnostics: await diagnosticsByEnvironment(db, project, input.path, input.text),
    }),
  }),
  withInput({
    type: 'object',
    properties: { project: scopeProperties.project, path: pathProperty },
    required: ['path'],
    additionalProperties: false,
  }).define({
    name: 'delete_document',
    description: 'Delete a document with all its revisions. Refused while it is live in any environment.',
    permission: 'document:write',
    tag: 'write',
    secretFields: [],
    // Documents and secrets are not what the project directory holds.
    reshapesProject: false,
    scope: 'project',
    rows: (input) => [
      { k: 'delete', v: input.path },
    ],
    run: async ({ db, project }, input) => {
      await deleteDocument(db, project, input.path);
      return { project: project.slug, deleted: input.path };
    },
  }),
];
