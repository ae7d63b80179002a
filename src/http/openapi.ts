// How the OpenAPI document is made from the route schemas: shared schemas
// keep their own names in components (`Error`, not `def-0`), and a wildcard
// path parameter is published as `{path}`, since OpenAPI cannot name `*`.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';

const WILDCARD_NAME = 'path';

/** The route's schema and url with its `*` parameter named. */
function namedWildcard(schema: FastifySchema | undefined, url: string): { schema: FastifySchema; url: string } {
  if (!url.endsWith('*') || !schema) return { schema: schema ?? {}, url };
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const { '*': wildcard, ...named } = params?.properties ?? {};
  const renamed = params && {
    ...params,
    properties: { ...named, [WILDCARD_NAME]: { ...(wildcard as object), description: 'The document path, e.g. app.yaml' } },
    required: params.required?.map((name) => (name === '*' ? WILDCARD_NAME : name)),
  };
  return { schema: { ...schema, ...(renamed ? { params: renamed } : {}) }, url: `${url.slice(0, -1)}:${WILDCARD_NAME}` };
}

export const openapiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Aion Ops', version: '0.1.0', description: 'Operations console for configuration.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  },
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  transform: ({ schema, url }) => namedWildcard(schema, url),
};
