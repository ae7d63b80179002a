// HTTP in /metrics: request durations by route and status, and the requests
// that may be held waiting for a change (`?wait`) apart from them — a 30 s
// wait is not a slow request — with a gauge of those held right now; and the
// model's calls and tokens by model and kind.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { TOKEN_KINDS, type UsageMeter } from '../assistant/usage.js';
import type { Changes } from '../store/changes.js';

/** Whether the request asked to be held until a change (`?wait=S`, S > 0, on live configuration and shared context). */
function mayBeHeld(request: FastifyRequest): boolean {
  const query = request.query as { wait?: unknown } | undefined;
  return typeof query?.wait === 'number' && query.wait > 0;
}

export function instrument(app: FastifyInstance, registry: Registry, changes: Changes, usage: UsageMeter): void {
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
  // The meter keeps the totals; each scrape copies them (a counter cannot be set).
  new Counter({
    name: 'aion_model_calls_total',
    help: 'Model calls answered, by model',
    labelNames: ['model'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [model, totals] of usage.models()) this.inc({ model }, totals.calls);
    },
  });
  new Counter({
    name: 'aion_model_tokens_total',
    help: 'Tokens of model calls as the API reported them, by model and kind (input, output, cache_write, cache_read)',
    labelNames: ['model', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [model, totals] of usage.models()) for (const kind of TOKEN_KINDS) this.inc({ model, kind }, totals[kind]);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) };
    (mayBeHeld(request) ? waits : durations).observe(labels, reply.elapsedTime / 1000);
  });
}
