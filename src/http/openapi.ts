// How the OpenAPI document is made from the route schemas: shared schemas
// keep their own names in components (`Error`, not `def-0`), a wildcard
// path parameter is published as `{path}`, since OpenAPI cannot name `*`,
// path ids say they are uuids, a route that reads a body lists what parsing
// it answers (BODY_ERRORS), and a body is required only when it must name
// something (no body at all is taken as `{}`: bodies.ts).
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { referringToSeedTypes } from './components.js';
import { BODY_ERRORS } from './schemas.js';

const WILDCARD_NAME = 'path';

/**
 * The path parameters that hold a thread's or a proposal's id. Published as
 * uuids; validated by the services, so a malformed one is the route's 404
 * ("No such thread"), which a `format` the route asserted would make a 422.
 */
const UUID_PARAMS = new Set(['id', 'proposal_id']);

type ParamsSchema = { properties?: Record<string, unknown>; required?: string[] };
/** What of the published document is read here: each operation's request body and its schemas. */
type Paths = Record<string, Record<string, { requestBody?: { required?: boolean; content?: Record<string, { schema?: BodySchema }> } }>>;
type BodySchema = { required?: string[]; $ref?: string };
type Components = Record<string, BodySchema>;

/** The route's schema and url with its `*` parameter named. */
function namedWildcard(schema: FastifySchema | undefined, url: string): { schema: FastifySchema; url: string } {
  if (!url.endsWith('*') || !schema) return { schema: schema ?? {}, url };
  const params = schema.params as ParamsSchema | undefined;
  const { '*': wildcard, ...named } = params?.properties ?? {};
  const renamed = params && {
    ...params,
    properties: { ...named, [WILDCARD_NAME]: { ...(wildcard as object), description: 'The document path, e.g. app.yaml' } },
    required: params.required?.map((name) => (name === '*' ? WILDCARD_NAME : name)),
  };
  return { schema: { ...schema, ...(renamed ? { params: renamed } : {}) }, url: `${url.slice(0, -1)}:${WILDCARD_NAME}` };
}

/** The schema with its id path parameters published as uuids. */
function uuidIds(schema: FastifySchema): FastifySchema {
  const params = schema.params as ParamsSchema | undefined;
  if (!params?.properties || !Object.keys(params.properties).some((name) => UUID_PARAMS.has(name))) return schema;
  const properties = Object.fromEntries(
    Object.entries(params.properties).map(([name, property]) => [name, UUID_PARAMS.has(name) ? { ...(property as object), format: 'uuid' } : property]),
  );
  return { ...schema, params: { ...params, properties } };
}

const READS_A_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The schema with the statuses its body parsing can answer (BODY_ERRORS), where the route reads a body. */
function withBodyErrors(schema: FastifySchema, route: RouteOptions): FastifySchema {
  const methods = [route.method].flat();
  if (!methods.some((method) => READS_A_BODY.has(method))) return schema;
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  for (const [status, description] of Object.entries(BODY_ERRORS)) {
    if (status === '413' && route.config?.oversizedBodyIsInvalid) continue;
    response[status] ??= { description, $ref: 'Error#' };
  }
  return { ...schema, response };
}

/** The schema with a 200 that says nothing said to be "Done", as the spec's tables have it. */
function doneSaysDone(schema: FastifySchema): FastifySchema {
  const response = schema.response as Record<string, Record<string, unknown>> | undefined;
  const ok = response?.[200];
  if (!ok || typeof ok.description === 'string') return schema;
  return { ...schema, response: { ...response, 200: { ...ok, description: 'Done' } } };
}

/** Marks each request body required only when its schema requires a field: an absent body is `{}`. */
function bodiesRequiredOnlyWhenNeeded<Document extends { paths?: unknown; components?: { schemas?: unknown } }>(document: Document): Document {
  const components = (document.components?.schemas ?? {}) as Components;
  // A body named by its seed type (`$ref: #/components/schemas/PostMessageBody`) requires what that component does.
  const resolved = (schema: BodySchema | undefined) => (schema?.$ref ? components[schema.$ref.replace('#/components/schemas/', '')] : schema);
  for (const path of Object.values((document.paths ?? {}) as Paths)) {
    for (const { requestBody } of Object.values(path)) {
      if (!requestBody?.content) continue;
      requestBody.required = Object.values(requestBody.content).some((media) => (resolved(media.schema)?.required?.length ?? 0) > 0);
    }
  }
  return document;
}

export const openapiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Aion Ops', version: '0.1.0', description: 'Operations console for configuration.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  },
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  transform: ({ schema, url, route }) => {
    const named = namedWildcard(schema, url);
    return { ...named, schema: doneSaysDone(referringToSeedTypes(withBodyErrors(uuidIds(named.schema), route))) };
  },
  transformObject: (document) => ('openapiObject' in document ? bodiesRequiredOnlyWhenNeeded(document.openapiObject) : document.swaggerObject),
};
