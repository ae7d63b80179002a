// A canary secret set through set_secret never appears in any tool result,
// HTTP answer, audit entry or log line (only the live endpoint resolves it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/store/schema.js';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CANARY = 'canary-7f3a9c1e-do-not-leak';

let server: TestServer;
let ada: Client;
const answers: string[] = [];

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
});
afterAll(() => server.stop());

async function tool(name: string, input: unknown) {
  const answer = await ada.post(`/api/v1/assistant/tools/${name}`, input);
  answers.push(answer.text, JSON.stringify(Object.fromEntries(answer.headers)));
  return answer;
}

describe('a canary secret', () => {
  it('is stored, and its version is reported instead of its value', async () => {
    const set = await tool('set_secret', { project: 'shop', environment: 'staging', name: 'CANARY', value: CANARY });
    expect(set.body).toMatchObject({ is_error: false, result: { secret: { name: 'CANARY', version: 1 } } });
    const again = await tool('set_secret', { project: 'shop', environment: 'staging', name: 'CANARY', value: CANARY });
    expect(again.body).toMatchObject({ result: { secret: { version: 2 } } });
    // A refused and a malformed set must not echo it either.
    await client(server.url, server.demoTokens.vic ?? '').post('/api/v1/assistant/tools/set_secret', {
      project: 'shop',
      environment: 'staging',
      name: 'CANARY',
      value: CANARY,
    });
    await tool('set_secret', { project: 'shop', environment: 'staging', name: 'bad name', value: CANARY });
  });

  it('appears in no read tool result', async () => {
    for (const t of CATALOGUE.filter((x) => x.tag === 'read')) {
      await tool(t.name, { project: 'shop', environment: 'staging' });
      await tool(t.name, {});
    }
    await tool('list_secrets', { project: 'shop', environment: 'staging' });
    await tool('read_audit', { project: 'shop', limit: 200 });
    for (const text of answers) expect(text).not.toContain(CANARY);
  });

  it('appears in no audit entry and no log line', async () => {
    await server.services.audit.flush();
    const rows = await server.services.db.select().from(auditEntries);
    expect(rows.some((r) => r.tool === 'set_secret')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(CANARY);
    const setEntry = rows.find((r) => r.tool === 'set_secret' && r.outcome === 'ok');
    expect(setEntry?.input).toMatchObject({ value: '[redacted]' });
    expect(server.logs.length).toBeGreaterThan(0);
    expect(server.logs.join('\n')).not.toContain(CANARY);
  });
});
