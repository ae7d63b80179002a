// The Fastify application: conventions (auth, errors, validation, request ids,
// logs, metrics, OpenAPI) and the routes, one plugin per resource.
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import swagger from '@fastify/swagger';
import type { Ajv } from 'ajv';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config, LogFormat } from '../config.js';
import type { Store } from '../store/db.js';
import { authPlugin } from './auth.js';
import { secureServerFactory } from './tls.js';
import { acceptEmptyBodies } from './bodies.js';
import { loadConsole } from './console.js';
import { errorSchema, registerErrorHandling } from './errors.js';
import { CENSOR, REDACTED_PATHS, serializeRequest } from './log-redaction.js';
import { QuietRequestLog } from './request-log.js';
import { instrument } from './metrics.js';
import { idempotencyPlugin } from './idempotency.js';
import { RequestGate } from './request-gate.js';
import { IdempotencyKeys } from '../store/idempotency-keys.js';
import { openapiOptions } from './openapi.js';
import { seedComponents } from './components.js';
import { originGuard } from './origins.js';
import { liveRoutes } from './routes/live.js';
import { mcpRoutes } from './routes/mcp.js';
import { memberRoutes } from './routes/members.js';
import { operationRoutes } from './routes/operations.js';
import { operatorRoutes } from './routes/operators.js';
import { projectRoutes } from './routes/projects.js';
import { tokenRoutes } from './routes/tokens.js';
import { toolRoutes } from './routes/tools.js';
import { conceptRoutes } from './routes/concepts.js';
import { agentRoutes } from './routes/agents.js';
import { assistantRoutes } from './routes/assistant.js';
import { changeRequestRoutes } from './routes/change-requests.js';
import { webhookRoutes } from './routes/webhooks.js';
import { projectChangeRoutes } from './routes/project-changes.js';
import { turnRoutes } from './routes/turns.js';
import { changeRoutes } from './routes/changes.js';
import { streamRoutes } from './routes/stream.js';
import { conversationRoutes } from './routes/conversation.js';
import { ajvOnFirstUse, compileAtTheEdge } from '../validation/ajv.js';
import { buildSerializerOnFirstUse } from './serializers.js';
import { createServices, type ServiceConfig, type Services } from '../services.js';
import { logOutput } from '../logging.js';
import { BODY_LIMIT } from './body-limits.js';

const MAX_PARAM_LENGTH = 500;

export interface AppOptions {
  store: Store;
  config: Pick<Config, 'logLevel' | 'logFormat' | 'metricsToken' | 'host' | 'allowedOrigins' | 'requestQueueLimitMs'> & Partial<Pick<Config, 'tls'>> & ServiceConfig;
  /** Where log lines go; stderr by default. */
  logStream?: Writable;
}

export async function buildApp({
  store,
  config,
  logStream,
}: AppOptions): Promise<{ app: FastifyInstance; services: Services; gate: RequestGate; logFormat: LogFormat }> {
  const log = await logOutput(config.logFormat, logStream ?? process.stderr);
  const serverFactory = secureServerFactory(config.tls ?? null);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: CENSOR },
      serializers: { req: serializeRequest },
      stream: log.stream,
    },
    ...(log.format === 'pretty' ? { logController: new QuietRequestLog() } : {}),
    bodyLimit: BODY_LIMIT,
    ...(serverFactory ? { serverFactory } : {}),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } },
    // Errors raised before routing keep our error shape too. A path value
    // merely too long names nothing: the 404 a route gives an unknown name.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return void reply.code(404).send({ error: `nothing here is named by a path value over ${MAX_PARAM_LENGTH} characters` });
      }
      void reply.code(400).send({ error: `the request is malformed: ${error.message}` });
    },
  });

  // Bodies are validated strictly (a wrong type is a 422, never coerced);
  // query strings and paths arrive as text, so they may be coerced.
  const withErrorSchema = (ajv: Ajv) => ajv.addSchema(errorSchema);
  const strict = ajvOnFirstUse({ coerceTypes: false, useDefaults: true, removeAdditional: false }, withErrorSchema);
  const lenient = ajvOnFirstUse({ coerceTypes: 'array', useDefaults: true, removeAdditional: false }, withErrorSchema);
  app.setValidatorCompiler(({ schema, httpPart }) => compileAtTheEdge(httpPart === 'body' ? strict : lenient, schema));

  const services = await createServices(store, config, app.log);
  const idempotencyKeys = new IdempotencyKeys(services.db, config.requestQueueLimitMs);
  idempotencyKeys.start((err) => app.log.error({ err }, 'forgetting day-old idempotency keys failed; trying again in an hour'));
  const gate = new RequestGate(config.requestQueueLimitMs, idempotencyKeys);
  // Held requests (?wait) answer at once, so closing never waits one out.
  app.addHook('preClose', async () => {
    services.changes.stopWaiting();
    // Turns running here end as cancelled, with what they had said, rather than wait out their lease.
    services.turns.close();
    services.changeRequests.close();
    idempotencyKeys.close();
  });
  app.addHook('onClose', async () => {
    await services.webhooks.close();
    await services.agents.stopAll();
    await services.drain();
  });

  app.addSchema(errorSchema);
  for (const component of seedComponents) app.addSchema(component);
  const webConsole = await loadConsole();
  registerErrorHandling(app, (limit) => `the request body is larger than ${limit} bytes; send less`, webConsole?.page);
  acceptEmptyBodies(app);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  instrument(app, services.metrics.registry, services.changes);

  await app.register(swagger, openapiOptions);
  // First: a request's arrival is when it reached the server, before anything else it waits for.
  await app.register(gate.plugin);
  // Before authentication: a rebound or foreign request is refused whatever token it carries.
  await app.register(originGuard, { host: config.host, allowedOrigins: config.allowedOrigins });
  await app.register(authPlugin, { authenticator: services.authenticator });
  await app.register(idempotencyPlugin, { keys: idempotencyKeys });
  await app.register(operationRoutes, { store, gate, metrics: services.metrics.registry, metricsToken: config.metricsToken });
  await app.register(
    async (api) => {
      for (const routes of [projectRoutes, memberRoutes, operatorRoutes, tokenRoutes, toolRoutes, conceptRoutes, liveRoutes, assistantRoutes, conversationRoutes, agentRoutes, turnRoutes, changeRoutes, streamRoutes, projectChangeRoutes, changeRequestRoutes, webhookRoutes]) {
        await api.register(routes, { services });
      }
    },
    { prefix: '/api/v1' },
  );
  await app.register(mcpRoutes, { services });
  await webConsole?.register(app);
  return { app, services, gate, logFormat: log.format };
}
