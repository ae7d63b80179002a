// What /metrics serves: the process's own figures, request durations by
// route and status, the requests held open waiting for a change, and the
// model's calls and tokens by model and kind.
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TOKEN_KINDS, type UsageMeter } from '../assistant/usage.js';
import type { Changes } from '../store/changes.js';

export function instrument(app: FastifyInstance, changes: Changes, usage: UsageMeter): Registry {
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
  // The meter keeps the totals; each scrape copies them (a counter cannot be set).
  new Counter({
    name: 'aion_model_calls_total',
    help: 'Model calls answered, by model',
    labelNames: ['model'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [model, totals] of usage.models()) this.inc({ model }, totals.calls);
    },
  });
  new Counter({
    name: 'aion_model_tokens_total',
    help: 'Tokens of model calls as the API reported them, by model and kind (input, output, cache_write, cache_read)',
    labelNames: ['model', 'kind'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [model, totals] of usage.models()) for (const kind of TOKEN_KINDS) this.inc({ model, kind }, totals[kind]);
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
