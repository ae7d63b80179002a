// The Fastify application: conventions (auth, errors, validation, request ids,
// logs, metrics, OpenAPI) and the routes, one plugin per resource.
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import swagger from '@fastify/swagger';
import { Ajv, type Options as AjvOptions } from 'ajv';
import formats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { authPlugin } from './auth.js';
import { loadConsole } from './console.js';
import { errorSchema, registerErrorHandling } from './errors.js';
import { instrument } from './metrics.js';
import { liveRoutes } from './routes/live.js';
import { mcpRoutes } from './routes/mcp.js';
import { memberRoutes } from './routes/members.js';
import { operationRoutes } from './routes/operations.js';
import { operatorRoutes } from './routes/operators.js';
import { projectRoutes } from './routes/projects.js';
import { tokenRoutes } from './routes/tokens.js';
import { toolRoutes } from './routes/tools.js';
import { conceptRoutes } from './routes/concepts.js';
import { assistantRoutes } from './routes/assistant.js';
import { conversationRoutes } from './routes/conversation.js';
import { createServices, type ServiceConfig, type Services } from '../services.js';

const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  store: Store;
  config: Pick<Config, 'logLevel' | 'metricsToken'> & ServiceConfig;
  /** Where log lines go; stderr by default. */
  logStream?: Writable;
}

/** Values that must never reach a log line. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers["x-aion-token"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.value',
  '*.password',
];

function validatorFor(options: AjvOptions) {
  const ajv = new Ajv({ allErrors: false, strict: false, ...options });
  formats.default(ajv);
  ajv.addSchema(errorSchema);
  return ajv;
}

export async function buildApp({ store, config, logStream }: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED, censor: '[redacted]' },
      stream: logStream ?? process.stderr,
    },
    bodyLimit: BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Ids in paths may be long; keep a malformed one a 404, not a 414.
    routerOptions: { maxParamLength: 500 },
    // Errors raised before routing (a path that does not decode) keep our error shape too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.code(400).send({ error: `the request is malformed: ${error.message}` });
    },
  });

  // Bodies are validated strictly (a wrong type is a 422, never coerced);
  // query strings and paths arrive as text, so they may be coerced.
  const strict = validatorFor({ coerceTypes: false, useDefaults: true, removeAdditional: false });
  const lenient = validatorFor({ coerceTypes: 'array', useDefaults: true, removeAdditional: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : lenient).compile(schema));

  const services = await createServices(store, config, app.log);
  // Held requests (?wait) answer at once, so closing never waits one out.
  app.addHook('preClose', async () => services.changes.stopWaiting());
  app.addHook('onClose', () => services.drain());

  app.addSchema(errorSchema);
  const webConsole = await loadConsole();
  registerErrorHandling(app, (limit) => `the request body is larger than ${limit} bytes; send less`, webConsole?.page);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  const metrics = instrument(app, services.changes);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Aion Ops', version: '0.1.0', description: 'Operations console for configuration.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(authPlugin, { authenticator: services.authenticator });
  await app.register(operationRoutes, { store, metrics, metricsToken: config.metricsToken });
  await app.register(
    async (api) => {
      for (const routes of [projectRoutes, memberRoutes, operatorRoutes, tokenRoutes, toolRoutes, conceptRoutes, liveRoutes, assistantRoutes, conversationRoutes]) {
        await api.register(routes, { services });
      }
    },
    { prefix: '/api/v1' },
  );
  await app.register(mcpRoutes, { services });
  await webConsole?.register(app);
  return { app, services };
}
