// The live configuration a service reads with its service token
// (DESIGN.md §2): one document as JSON with secret references resolved, its
// ETag the deployment number, and `?wait` to hold the request until a newer
// deployment lands. A token reaches only the environment it names; anything
// else is a 404, as if nothing were there.
import { environmentNames, liveDocument } from '../../domain/deployments.js';
import { openSecrets } from '../../domain/secrets.js';
import { parseDocument, resolveSecrets } from '../../documents/index.js';
import { badToken, notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

const MAX_WAIT_SECONDS = 60;

type Live = NonNullable<Awaited<ReturnType<typeof liveDocument>>>;

export const liveRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { db, changes } = services;

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
              description: 'With If-None-Match naming the current ETag: seconds to wait for a newer deployment (304 when none lands).',
            },
          },
          additionalProperties: false,
        },
        response: {
          200: { type: 'object', additionalProperties: true, description: 'The live document; ETag is its deployment number.' },
          304: { type: 'null', description: 'Unchanged: If-None-Match names the current deployment.' },
          ...errorResponses(401, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      if (caller?.kind !== 'service') throw badToken();
      const { project, environment, '*': path } = request.params;
      const nothing = () => notFound(`nothing is live at ${project}/${environment}/${path}`);
      const names = await environmentNames(db, caller.environmentId);
      if (!names || names.project !== project || names.environment !== environment) throw nothing();

      const read = () => liveDocument(db, caller.environmentId, path);
      let live = await read();
      if (live && request.query.wait && matches(request.headers['if-none-match'], live.deployment)) {
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const seen = live.deployment;
        const newer = (value: Live | null) => !value || value.deployment !== seen;
        live = await changes.waitFor(`project:${names.projectId}`, read, newer, request.query.wait * 1000, gone.signal);
      }
      if (!live) throw nothing();

      void reply.header('etag', `"${live.deployment}"`).header('cache-control', 'no-cache');
      if (matches(request.headers['if-none-match'], live.deployment)) return reply.code(304).send(null);
      const secrets = await openSecrets(db, services.secretBox, caller.environmentId);
      const resolved = resolveSecrets(parseDocument(live.text), (name) => secrets.get(name));
      // A deployed document checked clean, and a clean document's root is a mapping.
      return reply.send(resolved as Record<string, unknown>);
    },
  );
};

/** Whether an If-None-Match header names this deployment's ETag (or is `*`). */
function matches(header: string | undefined, deployment: number): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === `"${deployment}"`;
  });
}
