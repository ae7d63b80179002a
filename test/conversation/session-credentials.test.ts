// A conversation's session credentials, seen and revoked by its operator: the
// live ones are listed (created, expires, last used; never the token), any
// one of them is revoked at once and audited like its mint, and another
// operator's thread has none to show.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/access/tokens.js';
import { auditEntries, tokens } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Listed {
  id: string;
  holder: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

let server: TestServer;
let ada: Client;
let olive: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  olive = client(server.url, server.demoTokens.olive ?? '');
});
afterAll(() => server.stop());

const CONSOLE = { headers: { 'x-aion-via': 'console' } };

async function openThread(): Promise<string> {
  return ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
}

async function mint(thread: string): Promise<{ id: string; token: string; expires_at: string }> {
  const minted = await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`);
  expect(minted.status).toBe(201);
  return minted.body as { id: string; token: string; expires_at: string };
}

const listed = async (thread: string) => (await ada.get(`/api/v1/assistant/threads/${thread}/session-credentials`)).body as Listed[];
const contextWith = (thread: string, token: string) => client(server.url, token).get(`/api/v1/assistant/threads/${thread}/context`);

async function lastEntry(tool: string) {
  await server.services.audit.flush();
  const [entry] = await server.services.db.select().from(auditEntries).where(eq(auditEntries.tool, tool)).orderBy(desc(auditEntries.id)).limit(1);
  return entry;
}

describe("a conversation's session credentials", () => {
  it('are listed while live, newest first, with created, expires and last used, never the token', async () => {
    const thread = await openThread();
    const first = await mint(thread);
    const second = await mint(thread);
    expect((await contextWith(thread, first.token)).status).toBe(200);

    const answer = await ada.get(`/api/v1/assistant/threads/${thread}/session-credentials`);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(first.token);
    expect(answer.text).not.toContain(second.token);
    const [newest, oldest] = answer.body as Listed[];
    expect((answer.body as Listed[]).map((c) => c.id)).toEqual([second.id, first.id]);
    expect(newest).toMatchObject({ holder: 'client', expires_at: second.expires_at, last_used_at: null });
    expect(oldest?.last_used_at).not.toBeNull();
    expect(Date.parse(oldest?.created_at ?? '')).toBeLessThanOrEqual(Date.now());

    // They belong to the thread, not to the operator's token list.
    const mine = (await ada.get('/api/v1/tokens')).body as { id: string }[];
    expect(mine.map((t) => t.id)).not.toContain(first.id);

    // An expired one is no longer live.
    await server.services.db.update(tokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tokens.hash, hashToken(second.token)));
    expect((await listed(thread)).map((c) => c.id)).toEqual([first.id]);
  });

  it("name the agent's own as held by the agent", async () => {
    const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' })).body as { id: string }).id;
    expect((await ada.post(`/api/v1/assistant/threads/${thread}/messages`, { text: '/say hi' })).status).toBe(200);
    const minted = await mint(thread);
    expect((await listed(thread)).map((c) => [c.id === minted.id ? 'minted' : 'other', c.holder])).toEqual([
      ['minted', 'client'],
      ['other', 'agent'],
    ]);
  });

  it('revokes one at once, audited like its mint; the other still serves', async () => {
    const thread = await openThread();
    const kept = await mint(thread);
    const revoked = await mint(thread);
    expect((await contextWith(thread, revoked.token)).status).toBe(200);

    const answer = await ada.delete(`/api/v1/assistant/threads/${thread}/session-credentials/${revoked.id}`, CONSOLE);
    expect(answer.status).toBe(204);
    expect((await contextWith(thread, revoked.token)).status).toBe(401);
    expect((await contextWith(thread, kept.token)).status).toBe(200);
    expect((await listed(thread)).map((c) => c.id)).toEqual([kept.id]);
    const entry = await lastEntry('session:revoke');
    expect(entry).toMatchObject({ operator: 'ada', via: 'console', outcome: 'ok', project: 'shop', environment: 'staging', threadId: thread, input: { id: revoked.id } });

    // Gone is gone: a second revoke, an unknown id and a malformed one are 404, and audited as failures.
    for (const id of [revoked.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const again = await ada.delete(`/api/v1/assistant/threads/${thread}/session-credentials/${id}`);
      expect(again.status, id).toBe(404);
      expect(await lastEntry('session:revoke')).toMatchObject({ outcome: 'error', input: { id } });
    }
  });

  it('die with their thread, though the server remembers them from use (DESIGN §10.6)', async () => {
    const thread = await openThread();
    const credential = await mint(thread);
    expect((await contextWith(thread, credential.token)).status).toBe(200);
    expect((await ada.delete(`/api/v1/assistant/threads/${thread}`)).status).toBe(204);
    expect((await contextWith(thread, credential.token)).status).toBe(401);
  });

  it("cannot be revoked through another of the operator's threads", async () => {
    const thread = await openThread();
    const other = await openThread();
    const credential = await mint(thread);
    expect((await ada.delete(`/api/v1/assistant/threads/${other}/session-credentials/${credential.id}`)).status).toBe(404);
    expect((await contextWith(thread, credential.token)).status).toBe(200);
  });

  it("are 404 for another operator's thread, and closed to session credentials", async () => {
    const thread = await openThread();
    const credential = await mint(thread);
    expect((await olive.get(`/api/v1/assistant/threads/${thread}/session-credentials`)).status).toBe(404);
    expect((await olive.delete(`/api/v1/assistant/threads/${thread}/session-credentials/${credential.id}`)).status).toBe(404);
    const session = client(server.url, credential.token);
    expect((await session.get(`/api/v1/assistant/threads/${thread}/session-credentials`)).status).toBe(401);
    expect((await session.delete(`/api/v1/assistant/threads/${thread}/session-credentials/${credential.id}`)).status).toBe(401);
    expect((await contextWith(thread, credential.token)).status).toBe(200);
  });
});
