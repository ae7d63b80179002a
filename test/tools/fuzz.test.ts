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
  // What the store cannot hold: NUL, lone surrogates, integers past 32 bits.
  fc.constantFrom('sh\u0000op', 'app\u0000.yaml', 'a: "\u0000"', 'half \ud800', 'low \udc00', 2 ** 31, -(2 ** 31) - 1, 2 ** 53),
);

/** A tool's failure the executor did not expect: a 500 in disguise. */
function expectNoUnexpectedFailure(body: unknown) {
  expect(JSON.stringify(body)).not.toMatch(/failed unexpectedly/);
}

/** Query values, NUL and long ones among them (a lone surrogate cannot be put in a URL). */
const queryText = fc.oneof(
  fc.string({ maxLength: 40, unit: fc.oneof(fc.constant('\u0000'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
  fc.constantFrom('shop', 'x'.repeat(300)),
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
          expectNoUnexpectedFailure(answer.body);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('GET /api/v1/assistant/tools never answers 500', async () => {
    await fc.assert(
      fc.asyncProperty(queryText, queryText, async (project, environment) => {
        const query = new URLSearchParams({ project, environment }).toString();
        const answer = await request(server.url, 'GET', `/api/v1/assistant/tools?${query}`, { token: server.demoTokens.vic ?? null });
        expect(answer.status, answer.text).toBe(200);
      }),
      { numRuns: 100 },
    );
  });
});
