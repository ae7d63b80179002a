// What /metrics serves: the process's own figures, request durations by
// route and status, and the requests held open waiting for a change.
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Changes } from '../store/changes.js';

export function instrument(app: FastifyInstance, changes: Changes): Registry {
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const durations = new Histogram({
    name: 'aion_http_request_duration_seconds',
    help: 'HTTP request durations by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [metrics],
  });
  new Gauge({
    name: 'aion_held_requests',
    help: 'Requests held open waiting for a change (?wait on live configuration and shared context)',
    registers: [metrics],
    collect() {
      this.set(changes.waiting);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    durations.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  return metrics;
}
