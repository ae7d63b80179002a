// The live configuration a service reads with its service token
// (DESIGN.md §2): one document with secret references resolved, as JSON (or
// YAML when asked), compressed when worth it; its ETag names the deployment
// and the secret versions it was resolved with; `?wait` holds the request
// until that changes. Bodies come from memory (LiveBodies), so a 200 or a 304
// costs no query. A token reaches only the environment it names; anything
// else is a 404, as if nothing were there.
import type { LiveEntry } from '../../domain/live-bodies.js';
import { badToken, notFound } from '../../errors.js';
import { storeUnreachable } from '../../store/unreachable.js';
import { bearerToken } from '../auth.js';
import type { Services } from '../../services.js';
import { encodingFor, formatFor, matchesETag } from '../negotiation.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const MAX_WAIT_SECONDS = 60;
const CONTENT_TYPES = { json: 'application/json; charset=utf-8', yaml: 'application/yaml; charset=utf-8' } as const;

export const liveRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { liveBodies, changes, authenticator } = services;

  app.get(
    '/live/:project/:environment/*',
    {
      config: { accepts: ['service'] },
      schema: {
        operationId: 'getLiveDocument',
        summary: "A live document as JSON, secrets resolved (service tokens, for their token's environment only)",
        tags: ['live'],
        params: {
          type: 'object',
          properties: {
            project: { type: 'string', maxLength: 200 },
            environment: { type: 'string', maxLength: 200 },
            '*': { type: 'string', maxLength: 200 },
          },
          required: ['project', 'environment', '*'],
        },
        querystring: {
          type: 'object',
          properties: {
            wait: {
              type: 'integer',
              minimum: 0,
              maximum: MAX_WAIT_SECONDS,
              description: 'With If-None-Match naming the current ETag: seconds to wait for it to change (304 when it does not).',
            },
          },
          additionalProperties: false,
        },
        response: {
          // Bytes made once per deployment and form, sent as they are.
          200: {
            description:
              'The live document as a JSON object (YAML with Accept: application/yaml; gzip or br when accepted and worth it). ' +
              'The ETag names the deployment, the secret versions it was resolved with, and the form.',
          },
          304: { description: 'Unchanged: If-None-Match names the current ETag. No body.' },
          ...errorResponses(401, 404, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      if (caller?.kind !== 'service') throw badToken();
      const { project, environment, '*': path } = request.params;
      const format = formatFor(request.headers.accept);
      const wanted = encodingFor(request.headers['accept-encoding']);
      const encodingOf = (entry: LiveEntry) => (entry.body?.compressible ? wanted : 'identity');
      const etagOf = (entry: LiveEntry | null) => entry?.body?.etag(format, encodingOf(entry)) ?? null;
      const ifNoneMatch = request.headers['if-none-match'];

      const read = () => liveBodies.read(caller.environmentId, path);
      let entry = await read();
      if (!entry || entry.project !== project || entry.environment !== environment) throw nothing(request.params);
      const seen = etagOf(entry);
      if (seen && request.query.wait && matchesETag(ifNoneMatch, seen)) {
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        // A token revoked while its request is held ends the wait, refused.
        // A look the store cannot answer now keeps the request waiting on the
        // last one; the next change notice looks again.
        const token = bearerToken(request);
        let last: { entry: LiveEntry | null; allowed: boolean } = { entry, allowed: true };
        const look = async () => {
          try {
            last = { entry: await read(), allowed: (await authenticator.authenticate(token)) !== null };
          } catch (error) {
            if (!storeUnreachable(error)) throw error;
          }
          return last;
        };
        const topics = [`project:${entry.projectId}`, `environment:${caller.environmentId}`, `token:${caller.tokenId}`] as const;
        const waited = await changes.waitFor(topics, look, (now) => !now.allowed || etagOf(now.entry) !== seen, request.query.wait * 1000, gone.signal);
        if (!waited.allowed) throw badToken();
        entry = waited.entry;
      }
      const body = entry?.body;
      if (!entry || !body) throw nothing(request.params);

      const encoding = encodingOf(entry);
      const etag = body.etag(format, encoding);
      // The body holds resolved secrets: no shared cache may keep it; the
      // service's own may, and asks again (with the ETag) before each use.
      void reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'Accept, Accept-Encoding');
      if (matchesETag(ifNoneMatch, etag)) return reply.code(304).send();
      if (encoding !== 'identity') void reply.header('content-encoding', encoding);
      return reply.header('content-type', CONTENT_TYPES[format]).send(await body.bytes(format, encoding));
    },
  );
};

function nothing(where: { project: string; environment: string; '*': string }) {
  return notFound(`nothing is live at ${where.project}/${where.environment}/${where['*']}`);
}
