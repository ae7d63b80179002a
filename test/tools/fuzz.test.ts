// Random input on the two tool routes: never a 500, always a sentence.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

const names = CATALOGUE.map((t) => t.name);
const keys = ['project', 'environment', 'path', 'revision', 'text', 'name', 'value', 'operator', 'role', 'limit', 'concept', 'from', 'to', 'before', 'tool', 'protected', 'base_revision', 'message'];
const value = fc.oneof(
  fc.constantFrom('shop', 'staging', 'production', 'app.yaml', '../etc/passwd', 'API_KEY', 'vic', 'admin', '', 'x'.repeat(300)),
  fc.jsonValue(),
);

describe('fuzzing the tool routes', () => {
  it('POST /api/v1/assistant/tools/{name} never answers 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 30 })),
        fc.oneof(fc.dictionary(fc.constantFrom(...keys), value), fc.jsonValue()),
        fc.constantFrom('ada', 'vic', 'dev'),
        async (name, body, who) => {
          const answer = await request(server.url, 'POST', `/api/v1/assistant/tools/${encodeURIComponent(name || 'x')}`, {
            token: server.demoTokens[who] ?? null,
            body,
          });
          expect(answer.status, answer.text).toBeLessThan(500);
          expect([200, 400, 404, 422]).toContain(answer.status);
          if (answer.status === 200) expect(answer.body).toMatchObject({ tool: name, is_error: expect.any(Boolean), result: expect.any(Object) });
          else expect(answer.body).toEqual({ error: expect.any(String) });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('GET /api/v1/assistant/tools never answers 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), async (project, environment) => {
        const query = new URLSearchParams({ project, environment }).toString();
        const answer = await request(server.url, 'GET', `/api/v1/assistant/tools?${query}`, { token: server.demoTokens.vic ?? null });
        expect(answer.status, answer.text).toBe(200);
      }),
      { numRuns: 100 },
    );
  });
});
