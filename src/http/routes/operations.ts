// Operations: liveness, readiness, Prometheus metrics, the OpenAPI document.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { badToken, unavailable } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { bearerToken } from '../auth.js';
import { isLoopbackHost } from '../origins.js';
import type { RequestGate } from '../request-gate.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const PUBLIC = { accepts: [] };

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export const operationRoutes: FastifyPluginAsync<{ store: Store; gate: RequestGate; metrics: Registry; metricsToken: string | null }> = async (
  app,
  { store, gate, metrics, metricsToken },
) => {
  const mayReadMetrics = (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (metricsToken && token) return sameSecret(token, metricsToken);
    // A page on a name rebound to 127.0.0.1 calls from loopback too, but names its own host.
    return LOOPBACK.has(request.socket.remoteAddress ?? '') && isLoopbackHost(request.headers.host);
  };

  // The process lives: nothing else is asked, so a slow store never gets a live server restarted.
  app.get('/healthz', { config: PUBLIC, schema: { hide: true } }, async () => ({ ok: true }));

  // Ready for traffic: not draining, and the store answers. Migrations ran before the server listened at all.
  app.get('/readyz', { config: PUBLIC, schema: { hide: true } }, async (_request, reply) => {
    if (!gate.ready) {
      void reply.header('retry-after', '1');
      throw unavailable('this server is shutting down: send traffic to the others');
    }
    try {
      await store.ping();
    } catch {
      throw unavailable('the store does not answer; check the database and the server log');
    }
    return { ok: true };
  });

  app.get('/metrics', { config: PUBLIC, schema: { hide: true } }, async (request, reply) => {
    if (!mayReadMetrics(request)) throw badToken();
    return reply.type(metrics.contentType).send(await metrics.metrics());
  });

  app.get('/api/v1/openapi.json', { config: PUBLIC, schema: { hide: true } }, async () => app.swagger());
};
