// Operations: liveness, readiness, Prometheus metrics, the OpenAPI document.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { badToken, unavailable } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { bearerToken } from '../auth.js';
import { isLoopbackHost } from '../origins.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const PUBLIC = { accepts: [] };

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export const operationRoutes: FastifyPluginAsync<{ store: Store; metrics: Registry; metricsToken: string | null }> = async (
  app,
  { store, metrics, metricsToken },
) => {
  const mayReadMetrics = (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (metricsToken && token) return sameSecret(token, metricsToken);
    // A page on a name rebound to 127.0.0.1 calls from loopback too, but names its own host.
    return LOOPBACK.has(request.socket.remoteAddress ?? '') && isLoopbackHost(request.headers.host);
  };

  app.get('/healthz', { config: PUBLIC, schema: { hide: true } }, async () => ({ ok: true }));

  app.get('/readyz', { config: PUBLIC, schema: { hide: true } }, async () => {
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
