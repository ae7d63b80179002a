// Each kind of credential — an operator token, a service token, a session
// credential — on both stores (PostgreSQL with AION_TEST_DATABASE_URL):
// refused once expired, refused once revoked (after it was used, so a server
// that remembers it must forget it), and refused a write on a read-only
// connection (issue 34; DESIGN §10.7, §10.12). Each kind is first shown to
// work, so a refusal is the credential's state, not a request that never could.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/access/tokens.js';
import { tokens } from '../../src/store/schema.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';

const staging = { project: 'shop', environment: 'staging' };
const READ_ONLY = { 'x-aion-read-only': '1' };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

interface Minted {
  token: string;
  /** Revokes it as its owner would. */
  revoke(): Promise<void>;
}

interface Kind {
  mint(): Promise<Minted>;
  /** A request the credential may make: 200 while it is good, 401 once it is not. */
  use(token: string): Promise<number>;
  /** A write of secret `name` attempted on a read-only connection: answers the refusal's sentence. */
  writeReadOnly(token: string, name: string): Promise<{ refused: string }>;
}

for (const store of STORE_KINDS) {
  describe(`credentials on ${store}`, () => {
    let server: TestServer;
    let ada: Client;
    let thread: string;

    beforeAll(async () => {
      server = await startTestServer(store, { demo: true });
      ada = client(server.url, server.demoTokens.ada ?? '');
      thread = ((await ada.post('/api/v1/assistant/threads', staging)).body as { id: string }).id;
    });
    afterAll(() => server?.stop());

    /** A tools/call on /mcp as the token, read-only: the tool's error sentence. */
    const mcpWrite = async (token: string, name: string) => {
      const answer = await request(server.url, 'POST', '/mcp', {
        token,
        headers: { ...MCP_HEADERS, ...READ_ONLY },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'set_secret', arguments: { ...staging, name, value: 'v' } } },
      });
      expect(answer.status, answer.text).toBe(200);
      const { result } = answer.body as { result: { isError: boolean; structuredContent: { error: string } } };
      expect(result.isError).toBe(true);
      return { refused: result.structuredContent.error };
    };

    const KINDS: Record<string, Kind> = {
      operator: {
        mint: async () => {
          const minted = (await ada.post('/api/v1/tokens', { name: `t-${Date.now()}-${Math.random()}` })).body as { id: string; token: string };
          return { token: minted.token, revoke: async () => expect((await ada.delete(`/api/v1/tokens/${minted.id}`)).status).toBe(204) };
        },
        use: async (token) => (await client(server.url, token).get('/api/v1/projects')).status,
        writeReadOnly: async (token, name) => {
          const answer = await client(server.url, token).post('/api/v1/assistant/tools/set_secret', { ...staging, name, value: 'v' }, { headers: READ_ONLY });
          expect(answer.status, answer.text).toBe(200);
          return { refused: String((answer.body as { result: { error: string } }).result.error) };
        },
      },
      service: {
        mint: async () => {
          const minted = (await ada.post('/api/v1/tokens', { name: `s-${Date.now()}-${Math.random()}`, service: staging })).body as { id: string; token: string };
          return { token: minted.token, revoke: async () => expect((await ada.delete(`/api/v1/tokens/${minted.id}`)).status).toBe(204) };
        },
        use: async (token) => (await client(server.url, token).get('/api/v1/live/shop/staging/app.yaml')).status,
        // A service token reads the live configuration only: every write is refused it, read-only or not.
        writeReadOnly: async (token, name) => {
          const answer = await client(server.url, token).post('/api/v1/assistant/tools/set_secret', { ...staging, name, value: 'v' }, { headers: READ_ONLY });
          expect(answer.status).toBe(401);
          return { refused: String((answer.body as { error: string }).error) };
        },
      },
      session: {
        mint: async () => {
          const minted = (await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { id: string; token: string };
          return {
            token: minted.token,
            revoke: async () => expect((await ada.delete(`/api/v1/assistant/threads/${thread}/session-credentials/${minted.id}`)).status).toBe(204),
          };
        },
        use: async (token) => (await client(server.url, token).get(`/api/v1/assistant/threads/${thread}/context`)).status,
        writeReadOnly: mcpWrite,
      },
    };

    for (const [kind, credential] of Object.entries(KINDS)) {
      it(`${kind}: refused once expired`, async () => {
        const { token } = await credential.mint();
        await server.services.db.update(tokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tokens.hash, hashToken(token)));
        expect(await credential.use(token)).toBe(401);
      });

      it(`${kind}: refused once revoked, though it was used before`, async () => {
        const minted = await credential.mint();
        expect(await credential.use(minted.token)).toBe(200);
        await minted.revoke();
        expect(await credential.use(minted.token)).toBe(401);
      });

      it(`${kind}: refused a write on a read-only connection, and nothing written`, async () => {
        const { token } = await credential.mint();
        const name = `READ_ONLY_${kind.toUpperCase()}`;
        const { refused } = await credential.writeReadOnly(token, name);
        // A service token opens no tool route at all: its write is a bad token there, read-only or not.
        expect(refused).toBe(kind === 'service' ? 'bad token' : 'set_secret is a write tool, and this connection is read-only');
        const secrets = (await mustCall(ada, 'list_secrets', staging)).secrets as { name: string }[];
        expect(secrets.map((secret) => secret.name)).not.toContain(name);
      });
    }
  });
}
