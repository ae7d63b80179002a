// Schemas that several route files share. Each route file owns the rest.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { STATUS } from './errors.js';

export const projectParams = {
  type: 'object',
  properties: { project: { type: 'string', maxLength: 200 } },
  required: ['project'],
} as const;

/** `/assistant/threads/{id}`: a thread's id (its format is the service's to judge, so a malformed one is the thread's 404). */
export const threadParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 100 } },
  required: ['id'],
} as const;

const ERROR_MEANINGS: Record<number, string> = {
  401: 'Bad token',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  422: 'Invalid input: a field missing, of the wrong type, or one the route does not take',
  429: 'Too many requests',
  503: 'Unavailable',
};

/**
 * What a route that reads a body answers before its handler runs (errors.ts
 * maps Fastify's parser errors to them): malformed JSON, a body over the
 * limit (unless the route calls that invalid input), not JSON.
 */
export const BODY_ERRORS = {
  400: 'Malformed JSON body',
  413: 'Body too large',
  415: 'Unsupported content type: send JSON',
} as const;

type ErrorStatus = (typeof STATUS)[keyof typeof STATUS];

/**
 * Response entries for the error statuses a route can answer with; a status
 * given with a sentence says what it means on this route (the spec's words
 * where the spec has the route), else its general meaning.
 */
export function errorResponses(...statuses: (ErrorStatus | readonly [ErrorStatus, string])[]) {
  return Object.fromEntries(
    statuses.map((entry) => {
      const [status, meaning] = typeof entry === 'number' ? [entry, ERROR_MEANINGS[entry]] : entry;
      return [status, { description: meaning, $ref: 'Error#' }];
    }),
  ) as Record<number, { $ref: 'Error#' }>;
}

/** A route plugin whose request and reply types come from its JSON schemas. */
export type RoutePlugin<Options extends Record<string, unknown>> = FastifyPluginAsyncJsonSchemaToTs<{ Options: Options }>;
