// Operations routes and the conventions every answer follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { env: { AION_METRICS_TOKEN: 'metrics-secret-0123456789' } });
});
afterAll(() => server.stop());

describe('operations', () => {
  it('answers /healthz and /readyz without a token', async () => {
    expect((await request(server.url, 'GET', '/healthz')).body).toEqual({ ok: true });
    expect((await request(server.url, 'GET', '/readyz')).body).toEqual({ ok: true });
  });

  it('serves Prometheus metrics on loopback, and refuses a wrong metrics token', async () => {
    await request(server.url, 'GET', '/api/v1/projects', { token: server.adminToken });
    const metrics = await request(server.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toContain('aion_http_request_duration_seconds_count{method="GET",route="/api/v1/projects",status="200"}');
    expect(metrics.text).toContain('process_resident_memory_bytes');
    expect(metrics.text).toContain('aion_held_requests 0');
    expect((await request(server.url, 'GET', '/metrics', { token: 'metrics-secret-0123456789' })).status).toBe(200);
    const wrong = await request(server.url, 'GET', '/metrics', { token: 'metrics-secret-wrong-000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'bad token' });
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('publishes OpenAPI 3.1 generated from the route schemas', async () => {
    const answer = await request(server.url, 'GET', '/api/v1/openapi.json');
    expect(answer.status).toBe(200);
    const spec = answer.body as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/projects',
        '/api/v1/projects/{project}',
        '/api/v1/projects/{project}/members',
        '/api/v1/projects/{project}/members/{operator}',
        '/api/v1/operators',
        '/api/v1/tokens',
        '/api/v1/tokens/{id}',
      ]),
    );
    expect(Object.keys(spec.paths['/api/v1/projects']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '401', '403', '409', '422']),
    );
    expect(spec.paths['/healthz']).toBeUndefined();
  });

  it('names every operation, the error schema and the live route’s path parameter', async () => {
    type Operation = { operationId?: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
    const spec = (await request(server.url, 'GET', '/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );
    expect(operations.length).toBeGreaterThan(25);
    for (const { route, operation } of operations) expect(operation.operationId, route).toMatch(/^[a-z][A-Za-z]+$/);
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);

    expect(spec.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    expect(Object.keys(spec.components.schemas).filter((name) => name.startsWith('def-'))).toEqual([]);
    const unauthorized = spec.paths['/api/v1/projects']?.get?.responses['401'];
    expect(JSON.stringify(unauthorized)).toContain('#/components/schemas/Error');

    const live = spec.paths['/api/v1/live/{project}/{environment}/{path}']?.get;
    expect(live?.operationId).toBe('getLiveDocument');
    expect(live?.parameters?.filter((p) => p.in === 'path').map((p) => p.name).sort()).toEqual(['environment', 'path', 'project']);
    expect(Object.keys(spec.paths).some((path) => path.includes('*'))).toBe(false);
  });

  it('gives every answer a request id, and takes the caller’s own', async () => {
    const fresh = await request(server.url, 'GET', '/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await request(server.url, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    expect(server.logs.some((line) => line.includes('"reqId":"trace-42"'))).toBe(true);
  });

  it('answers an unknown route with 404 and a sentence', async () => {
    const answer = await request(server.url, 'GET', '/nowhere?x=1');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'no such route: GET /nowhere' });
  });
});
