// Without a model: the status says what to set, and a message answers 503
// without storing anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer('pglite');
  admin = client(server.url, server.adminToken);
  await admin.post('/api/v1/projects', { slug: 'plain' });
});
afterAll(() => server.stop());

describe('no model configured', () => {
  it('status: configured false, model null, and the sentence', async () => {
    expect((await admin.get('/api/v1/assistant/status')).body).toEqual({
      configured: false,
      model: null,
      sentence: 'No model is configured: set ANTHROPIC_API_KEY to use Claude, or AION_MODEL=fake to try the assistant with the fake model.',
    });
  });

  it('a message answers 503 and stores nothing', async () => {
    const thread = (await admin.post('/api/v1/assistant/threads', { project: 'plain' })).body as { id: string };
    const answer = await admin.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'hello' });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ error: expect.stringContaining('No model is configured') });
    const after = (await admin.get(`/api/v1/assistant/threads/${thread.id}`)).body as { messages: unknown[] };
    expect(after.messages).toEqual([]);
  });
});
