// The tool catalogue and running one tool as the caller
// (spec/assistant-and-tools.md: GET and POST /api/v1/assistant/tools).
import type { Services } from '../../services.js';
import { DOCUMENT_BODY_LIMIT } from '../body-limits.js';
import { toolDescriptorSchema } from '../../wire/tool-descriptor.js';
import { invocationOf, restrictionsOf } from '../invoke.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';
import { operatorOf } from '../auth.js';
import { idempotencyHeaders } from '../idempotency.js';

/** The writes a client retries, which keep an Idempotency-Key. */
const RETRIED_WRITES = new Set(['deploy', 'rollback']);

const anyObject = { type: 'object', additionalProperties: true } as const;

/** ToolCallResponse (spec/assistant-and-tools.md). */
export const toolCallResponseSchema = {
  type: 'object',
  description: 'A 200 even when the tool refused or failed; then is_error is true and result is {"error": sentence}.',
  properties: {
    is_error: { type: 'boolean' },
    result: anyObject,
    tool: { type: 'string' },
  },
  required: ['is_error', 'result', 'tool'],
  additionalProperties: false,
} as const;

/** ToolsResponse (spec/assistant-and-tools.md): everything the caller may see, whether or not they may run it. */
export const toolsResponseSchema = {
  type: 'object',
  properties: { tools: { type: 'array', items: toolDescriptorSchema } },
  required: ['tools'],
  additionalProperties: false,
} as const;

export const toolRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/assistant/tools',
    {
      // A value no project or environment can have points nowhere: the tools
      // that need one are then not allowed (a 200, as the spec has it).
      attachValidation: true,
      schema: {
        operationId: 'listTools',
        summary: 'Every tool, with the permission it costs and whether this caller could run it where the query points',
        description: 'X-Aion-Tools (a comma-separated list) and X-Aion-Read-Only: 1 leave out the tools they exclude, for any caller.',
        tags: ['assistant'],
        querystring: {
          type: 'object',
          properties: {
            project: { type: ['string', 'null'], maxLength: 200 },
            environment: { type: ['string', 'null'], maxLength: 200 },
          },
        },
        response: {
          200: toolsResponseSchema,
          ...errorResponses(401, 422),
        },
      },
    },
    // The query says where to judge `allowed`; the tool route fills nothing, so the schemas require what it needs.
    async (request) => ({ tools: await services.executor.describe(operatorOf(request), request.query, { ...restrictionsOf(request), scopeFills: false }) }),
  );

  app.post(
    '/assistant/tools/:name',
    {
      config: { idempotent: (request) => RETRIED_WRITES.has((request.params as { name: string }).name) },
      // write_document and check_document carry a whole document, JSON-escaped.
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        operationId: 'runTool',
        summary: 'Run one tool as the caller; the body is the tool input, verbatim',
        description:
          'X-Aion-Tools (a comma-separated list) makes every other tool a 404; X-Aion-Read-Only: 1 refuses every tool that changes anything (is_error). Both hold for any caller; an unreadable X-Aion-Read-Only is a 422. Idempotency-Key is kept for deploy and rollback (other tools ignore it). A write whose client left, or that waited over AION_REQUEST_QUEUE_LIMIT to start, does not run: 503 with Retry-After.',
        tags: ['assistant'],
        headers: idempotencyHeaders,
        params: { type: 'object', properties: { name: { type: 'string', maxLength: 200 } }, required: ['name'] },
        body: anyObject,
        response: { 200: toolCallResponseSchema, ...errorResponses(401, [404, 'No such tool'], 409, [422, "The input does not match the tool's schema"], 503) },
      },
    },
    async (request) => {
      const { tool, is_error, result } = await services.executor.run(
        invocationOf(request),
        request.params.name,
        request.body,
      );
      return { tool, is_error, result };
    },
  );
};
