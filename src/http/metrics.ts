// HTTP in /metrics: request durations by route and status, and the requests
// that may be held waiting for a change (`?wait`) apart from them — a 30 s
// wait is not a slow request — with a gauge of those held right now.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Changes } from '../store/changes.js';

/** Whether the request asked to be held until a change (`?wait=S`, S > 0, on live configuration and shared context). */
function mayBeHeld(request: FastifyRequest): boolean {
  const query = request.query as { wait?: unknown } | undefined;
  return typeof query?.wait === 'number' && query.wait > 0;
}

export function instrument(app: FastifyInstance, registry: Registry, changes: Changes): void {
  const labelNames = ['method', 'route', 'status'] as const;
  const durations = new Histogram({
    name: 'aion_http_request_duration_seconds',
    help: 'HTTP request durations by route and status, requests that may wait for a change (?wait) left out',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  const waits = new Histogram({
    name: 'aion_held_request_duration_seconds',
    help: 'Durations of requests that may wait for a change (?wait), by route and status',
    labelNames,
    buckets: [0.01, 0.1, 1, 5, 10, 20, 30, 45, 60],
    registers: [registry],
  });
  new Gauge({
    name: 'aion_held_requests',
    help: 'Requests held open waiting for a change (?wait on live configuration and shared context)',
    registers: [registry],
    collect() {
      this.set(changes.waiting);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) };
    (mayBeHeld(request) ? waits : durations).observe(labels, reply.elapsedTime / 1000);
  });
}
