// Bad input on every route of the OpenAPI document (so a new route cannot skip
// it): malformed JSON, huge bodies, wrong types, missing fields, unknown ids,
// and random bodies — each gets its status and a sentence, never a 500.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, request, type Answer } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let routes: { method: string; path: string; documented: string[] }[];

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  const spec = (await request(server.url, 'GET', '/api/v1/openapi.json')).body as {
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  };
  // A stream that opens stays open by design (test/turns covers their bad input): the fuzz waits for answers that end.
  routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !JSON.stringify(operation).includes('text/event-stream'))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, documented: Object.keys(operation.responses ?? {}) })),
  );
});
afterAll(() => server.stop());

/** Fills the path's parameters: known values, or the given stand-in. */
function concrete(path: string, fill: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(fill(name)));
}
const KNOWN: Record<string, string> = { project: 'shop', operator: 'vic' };
const withKnown = (path: string) => concrete(path, (name) => KNOWN[name] ?? '00000000-0000-4000-8000-000000000000');

function expectSentence(answer: Answer, status?: number) {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (status !== undefined) expect(answer.status, answer.text).toBe(status);
  if (answer.status >= 400) {
    expect(answer.body).toEqual({ error: expect.stringMatching(/^\S.{5,}/) });
  }
}

const bodied = (method: string) => method === 'POST' || method === 'PUT';

/** Text the store cannot hold: NUL and lone surrogates among ordinary characters. */
const unstorableText = fc.string({
  maxLength: 20,
  unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
});
/** Integers a 32-bit column cannot hold. */
const outOfRange = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 63));

describe('bad input on every route', () => {
  it('finds the routes in the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThanOrEqual(9);
  });

  it('answers malformed JSON with 400 and a sentence', async () => {
    const ada = server.demoTokens.ada;
    for (const route of routes.filter((r) => bodied(r.method))) {
      const answer = await request(server.url, route.method, withKnown(route.path), {
        token: ada,
        rawBody: '{"slug": "x",',
        headers: { 'content-type': 'application/json' },
      });
      expectSentence(answer, 400);
      expect(answer.body).toEqual({ error: 'the request body is not valid JSON; send a JSON object' });
      expect(route.documented, `${route.method} ${route.path} documents 400`).toContain('400');
    }
  });

  it('answers a body that is not JSON with 415 and a sentence, and the document lists it', async () => {
    for (const route of routes.filter((r) => bodied(r.method))) {
      const answer = await request(server.url, route.method, withKnown(route.path), {
        token: server.demoTokens.ada,
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectSentence(answer, 415);
      expect(route.documented, `${route.method} ${route.path} documents 415`).toContain('415');
    }
  });

  it('answers a body over its limit (1 MiB; 6 MiB + 64 KiB where a document text rides) with 413 and a sentence', async () => {
    // DESIGN.md §7: request bodies at most 1 MiB. Running a tool and sharing the context carry a document of up to
    // 1 MiB of text, JSON-escaped (6 bytes a byte at worst), and a little more (docs/decisions.md, issue 33).
    const carriesDocument = (path: string) => path.endsWith('/context') || path === '/api/v1/assistant/tools/{name}';
    const limitOf = (path: string) => (carriesDocument(path) ? 6 * 1024 * 1024 + 64 * 1024 : 1024 * 1024);
    for (const route of routes.filter((r) => bodied(r.method) && !r.path.endsWith('/messages'))) {
      const limit = limitOf(route.path);
      const answer = await request(server.url, route.method, withKnown(route.path), {
        token: server.demoTokens.ada,
        rawBody: JSON.stringify({ name: 'x'.repeat(limit + 10) }),
        headers: { 'content-type': 'application/json' },
      });
      expectSentence(answer, 413);
      expect(answer.body).toEqual({ error: `the request body is larger than ${limit} bytes; send less` });
      expect(route.documented, `${route.method} ${route.path} documents 413`).toContain('413');
    }
  });

  it("answers a message over the body limit with the seed's 422 for oversized text, whatever its size", async () => {
    const thread = (await request(server.url, 'POST', '/api/v1/assistant/threads', { token: server.demoTokens.ada, body: { project: 'shop' } })).body as { id: string };
    for (const size of [8001, 1_048_600, 3_000_000]) {
      const answer = await request(server.url, 'POST', `/api/v1/assistant/threads/${thread.id}/messages`, {
        token: server.demoTokens.ada,
        rawBody: JSON.stringify({ text: 'x'.repeat(size) }),
        headers: { 'content-type': 'application/json' },
      });
      expectSentence(answer, 422);
      expect((answer.body as { error: string }).error).toMatch(/^body\.text must NOT have more than 8000 characters/);
    }
    const messages = routes.find((r) => r.method === 'POST' && r.path.endsWith('/messages'));
    expect(messages?.documented).toContain('422');
    expect(messages?.documented).not.toContain('413');
  });

  it('answers wrong types and missing fields with 422 naming the field', async () => {
    const ada = server.demoTokens.ada;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v1/projects', { slug: 42 }, 'body.slug must be string'],
      ['POST', '/api/v1/projects', {}, "body must have required property 'slug'"],
      ['POST', '/api/v1/projects', { slug: 'Bad Slug!' }, 'body.slug must match pattern "^[a-z0-9][a-z0-9-]{0,62}$"'],
      ['POST', '/api/v1/projects', { slug: 'ok', extra: 1 }, 'body has an unknown property extra; remove it'],
      ['POST', '/api/v1/projects', [1, 2], 'body must be object'],
      ['POST', '/api/v1/tokens', { name: '' }, 'body.name must NOT have fewer than 1 characters'],
      ['POST', '/api/v1/tokens', { name: 'x', service: { project: 'shop' } }, "body.service must have required property 'environment'"],
      ['POST', '/api/v1/operators', { name: 'x', owner: 'yes' }, 'body.owner must be boolean'],
      ['POST', '/api/v1/projects/shop/members', { operator: 'vic', role: 'root' }, 'body.role must be equal to one of the allowed values'],
      ['PUT', '/api/v1/projects/shop/members/vic', { role: null }, 'body.role must be string'],
    ];
    for (const [method, path, body, sentence] of cases) {
      const answer = await request(server.url, method, path, { token: ada, body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
      expect(answer.body).toEqual({ error: sentence });
    }
  });

  it("lists the 422 of a wrong type or unknown field in the OpenAPI, with what it means, also on the seed's routes whose table has none", async () => {
    const ada = server.demoTokens.ada;
    const thread = (await request(server.url, 'POST', '/api/v1/assistant/threads', { token: ada, body: { project: 'shop' } })).body as { id: string };
    const cases: [string, string, string, unknown][] = [
      ['POST', '/api/v1/assistant/threads', '/api/v1/assistant/threads', { project: 42 }],
      ['POST', '/api/v1/assistant/threads', '/api/v1/assistant/threads', { extra: 1 }],
      ['POST', '/api/v1/assistant/threads/{id}/messages', `/api/v1/assistant/threads/${thread.id}/messages`, { text: 42 }],
      ['POST', '/api/v1/assistant/threads/{id}/proposals/accept-all', `/api/v1/assistant/threads/${thread.id}/proposals/accept-all`, { proposals: 'all' }],
      ['POST', '/api/v1/projects', '/api/v1/projects', { slug: 42 }],
    ];
    const document = (await request(server.url, 'GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    for (const [method, template, path, body] of cases) {
      expectSentence(await request(server.url, method, path, { token: ada, body }), 422);
      const documented = document.paths[template]?.[method.toLowerCase()]?.responses['422'];
      expect(documented?.description, `${method} ${template} documents its 422`).toMatch(/wrong type|schema|oversized/);
    }
  });

  it('answers unknown ids and names with 404 and a sentence', async () => {
    const ada = server.demoTokens.ada;
    expect((await request(server.url, 'DELETE', '/api/v1/tokens/not-a-uuid', { token: ada })).body).toEqual({
      error: 'no such token: not-a-uuid; list yours with GET /api/v1/tokens',
    });
    expectSentence(await request(server.url, 'DELETE', '/api/v1/tokens/00000000-0000-4000-8000-000000000000', { token: ada }), 404);
    expectSentence(await request(server.url, 'PUT', '/api/v1/projects/shop/members/ghost', { token: ada, body: { role: 'viewer' } }), 404);
    expectSentence(await request(server.url, 'GET', '/api/v1/projects/%00%ff', { token: ada }), 400);
    expectSentence(await request(server.url, 'GET', '/api/v1/no/such/route', { token: ada }), 404);
  });

  it('refuses what the store cannot hold at the edge: a body field is 422 naming it, a path or query value names nothing (404)', async () => {
    const ada = client(server.url, server.demoTokens.ada ?? '');
    const nul = 'must not contain a NUL character (\\u0000)';
    const cases: [Promise<Answer>, number, string][] = [
      [ada.get('/api/v1/projects/%00'), 404, `nothing here is named by params.project: it ${nul}`],
      [ada.get(`/api/v1/projects/${'x'.repeat(300)}`), 404, 'nothing here is named by params.project: it must NOT have more than 200 characters'],
      [ada.get(`/api/v1/assistant/threads/${'x'.repeat(300)}`), 404, 'nothing here is named by params.id: it must NOT have more than 100 characters'],
      [ada.delete('/api/v1/tokens/%00'), 404, `nothing here is named by params.id: it ${nul}`],
      [ada.post('/api/v1/tokens', { name: 'a\u0000' }), 422, `body.name ${nul}`],
      [ada.post('/api/v1/tokens', { name: 'a\udc00b' }), 422, 'body.name must not contain a lone surrogate (invalid UTF-16)'],
      [ada.post('/api/v1/projects', { slug: 'ok', name: 'N\u0000' }), 422, `body.name ${nul}`],
      [ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml', revision: 2 ** 31 }), 422, 'read_document: input.revision must be <= 2147483647'],
      [ada.post('/api/v1/assistant/tools/list_deployments', { project: 'shop', environment: 'staging', limit: -(2 ** 31) - 1 }), 422, 'list_deployments: input.limit must be >= 1'],
      [ada.post('/api/v1/assistant/tools/read_audit', { project: 'shop', before: 2 ** 53 }), 422, 'read_audit: input.before must be <= 2147483647'],
      [ada.post('/api/v1/assistant/tools/write_document', { project: 'shop', path: 'n.yaml', text: 'a: "\u0000"' }), 422, `write_document: input.text ${nul}`],
      [ada.post('/api/v1/assistant/tools/read_document', { project: 'sh\u0000op', path: 'app.yaml' }), 422, `read_document: input.project ${nul}`],
      [ada.post('/api/v1/assistant/tools/read_audit', { project: 'shop', operator: 'o'.repeat(201) }), 422, 'read_audit: input.operator must NOT have more than 200 characters'],
    ];
    for (const [pending, status, sentence] of cases) {
      const answer = await pending;
      expect(answer.status, answer.text).toBe(status);
      expect(answer.body).toEqual({ error: sentence });
    }
  });

  it('answers every path parameter holding NUL, or merely long, with 404 and a sentence naming it', async () => {
    const ada = server.demoTokens.ada;
    for (const route of routes.filter((r) => r.path.includes('{'))) {
      for (const stand of ['\u0000', 'x'.repeat(1000)]) {
        const answer = await request(server.url, route.method, concrete(route.path, () => stand), {
          token: ada,
          ...(bodied(route.method) ? { body: {} } : {}),
        });
        expectSentence(answer);
        // The live configuration answers a bad token to anything but a service token, once routed.
        const statuses = route.path.startsWith('/api/v1/live/') ? [401, 404] : [404];
        expect(statuses, `${route.method} ${route.path}: ${answer.text}`).toContain(answer.status);
      }
    }
  });

  it('takes an empty JSON body as no body, and no body as {}', async () => {
    const ada = server.demoTokens.ada;
    const emptyJson = { token: ada, rawBody: '', headers: { 'content-type': 'application/json' } };
    // Known projects, unknown operators and ids: nothing the demo holds is changed.
    const nobody = (path: string) => concrete(path, (name) => (name === 'project' ? 'shop' : name === 'operator' ? 'nobody' : '00000000-0000-4000-8000-000000000000'));
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const answer = await request(server.url, route.method, nobody(route.path), emptyJson);
      expectSentence(answer);
      expect(answer.status, `${route.method} ${route.path}: ${answer.text}`).not.toBe(400);
    }
    const opened = await request(server.url, 'POST', '/api/v1/assistant/threads', emptyJson);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toMatchObject({ project: null, environment: '', state: 'idle' });
    const bare = await request(server.url, 'POST', '/api/v1/assistant/threads', { token: ada });
    expect(bare.status, bare.text).toBe(200);
    const thread = (bare.body as { id: string }).id;
    const accepted = await request(server.url, 'POST', `/api/v1/assistant/threads/${thread}/proposals/accept-all`, emptyJson);
    expect(accepted.status, accepted.text).toBe(200);
    const credential = await request(server.url, 'POST', `/api/v1/assistant/threads/${thread}/session-credential`, emptyJson);
    expect(credential.status, credential.text).toBe(201);
    const token = await request(server.url, 'POST', '/api/v1/tokens', emptyJson);
    expect(token).toMatchObject({ status: 422, body: { error: "body must have required property 'name'" } });
    const whoami = await request(server.url, 'POST', '/api/v1/assistant/tools/whoami', emptyJson);
    expect(whoami.status, whoami.text).toBe(200);
  });

  it('answers POST /threads, whose spec has no 422, with a 404 for a project the store cannot hold, and keeps such a page storable', async () => {
    const ada = client(server.url, server.demoTokens.ada ?? '');
    expect(await ada.post('/api/v1/assistant/threads', { project: 'sh\u0000op' })).toMatchObject({ status: 404, body: { error: 'no such project: sh\uFFFDop' } });
    expect(await ada.post('/api/v1/assistant/threads', { page: 'a\ud800' })).toMatchObject({ status: 200, body: { page: 'a\uFFFD' } });
  });

  it('answers POST /threads naming the project "" with 404, as any unknown project', async () => {
    const answer = await request(server.url, 'POST', '/api/v1/assistant/threads', { token: server.demoTokens.ada, body: { project: '' } });
    expect(answer).toMatchObject({ status: 404, body: { error: 'no such project: ""' } });
  });

  it('never answers 500 to random bodies and path values on any route', async () => {
    const ada = server.demoTokens.ada;
    const property = fc.asyncProperty(
      fc.constantFrom(...routes),
      fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom('slug', 'name', 'role', 'operator', 'owner', 'service', 'project', 'environment', 'page', 'text', 'url', 'base_revision'),
          fc.oneof(fc.jsonValue(), unstorableText, outOfRange),
        ),
      ),
      fc.string({ maxLength: 40, unit: fc.oneof(fc.constant('\u0000'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
      async (route, body, param) => {
        const path = concrete(route.path, () => param || 'x');
        const answer = await request(server.url, route.method, path, {
          token: ada,
          ...(bodied(route.method) ? { body } : {}),
        });
        expectSentence(answer);
      },
    );
    await fc.assert(property, { numRuns: 300 });
  });

  it('still serves the demo after all of it', async () => {
    const members = await request(server.url, 'GET', '/api/v1/projects/shop/members', { token: server.demoTokens.ada });
    expect(members.status).toBe(200);
    expect((members.body as unknown[]).length).toBeGreaterThanOrEqual(4);
  });
});
