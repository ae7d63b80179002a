// A secret's value from the operator, not the model: in 2026-07-28, set_secret
// without `value` from a client that elicits forms answers input_required,
// the client's user types the value, and the retried call sets it
// (src/mcp/secret-input.ts). Over `/mcp` and `ops mcp`, with the split SDK's
// client answering as a host's form would; a client that does not elicit
// still has to give the value.
import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf } from './clients.js';
import { httpClient2x, stdioClient2x, type Elicit } from './modern-clients.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

type Connect = (elicit?: Elicit) => Promise<Client>;
const token = () => server.demoTokens.ada ?? '';
const TRANSPORTS: [string, Connect][] = [
  ['/mcp', (elicit) => httpClient2x(server.url, token(), {}, '2026-07-28', elicit)],
  ['ops mcp (stdio)', (elicit) => stdioClient2x(server.url, token(), [], '2026-07-28', elicit)],
];

const WHERE = { project: 'shop', environment: 'staging' };

/** A host's form that answers with `answer`, keeping what it was asked. */
function form(answer: ElicitResult): { elicit: Elicit; asked: ElicitRequest[] } {
  const asked: ElicitRequest[] = [];
  return {
    asked,
    elicit: (request) => {
      asked.push(request);
      return answer;
    },
  };
}

async function secretNames(client: Client): Promise<string[]> {
  const listed = answerOf(await client.callTool({ name: 'list_secrets', arguments: WHERE }));
  return (listed.result.secrets as { name: string }[]).map((secret) => secret.name);
}

describe.each(TRANSPORTS)('%s', (transport, connect) => {
  const prefix = transport === '/mcp' ? 'HTTP' : 'STDIO';

  it('lists set_secret with its value left to the operator only to a client that elicits forms', async () => {
    const [eliciting, plain] = await Promise.all([connect(form({ action: 'cancel' }).elicit), connect()]);
    try {
      const setSecret = async (client: Client) => (await client.listTools()).tools.find((tool) => tool.name === 'set_secret');
      const [offered, required] = await Promise.all([setSecret(eliciting), setSecret(plain)]);
      expect(offered?.inputSchema.required).toEqual(['project', 'environment', 'name']);
      expect(offered?.description).toContain('Leave value out to have the operator type it');
      expect(required?.inputSchema.required).toEqual(['project', 'environment', 'name', 'value']);
      expect(required?.description).not.toContain('Leave value out');
    } finally {
      await Promise.all([eliciting.close(), plain.close()]);
    }
  });

  it("asks the operator for a value left out, sets it, and keeps it out of the result and the audit", async () => {
    const value = `typed-by-the-operator-${prefix}`;
    const { elicit, asked } = form({ action: 'accept', content: { value } });
    const client = await connect(elicit);
    try {
      const name = `${prefix}_TYPED`;
      const set = answerOf(await client.callTool({ name: 'set_secret', arguments: { ...WHERE, name } }));
      expect(set.isError).toBe(false);
      expect(set.result).toMatchObject({ project: 'shop', environment: 'staging', secret: { name, version: 1 } });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.params).toMatchObject({
        mode: 'form',
        message: expect.stringContaining(`secret ${name} in shop/staging`) as unknown,
        requestedSchema: { type: 'object', properties: { value: { type: 'string', maxLength: 65536 } }, required: ['value'] },
      });
      expect(await secretNames(client)).toContain(name);
      const audit = answerOf(await client.callTool({ name: 'read_audit', arguments: { project: 'shop', tool: 'set_secret', limit: 5 } }));
      expect(JSON.stringify(audit.result)).toContain(name);
      expect(JSON.stringify(audit.result)).not.toContain(value);
      expect(JSON.stringify(set.result)).not.toContain(value);
    } finally {
      await client.close();
    }
  });

  it("holds the operator's value to the tool's schema, as a value the model gave", async () => {
    const client = await connect(form({ action: 'accept', content: { value: 'x'.repeat(65_537) } }).elicit);
    try {
      const name = `${prefix}_TOO_LONG`;
      const set = answerOf(await client.callTool({ name: 'set_secret', arguments: { ...WHERE, name } }));
      expect(set.isError).toBe(true);
      expect(String(set.result.error)).toMatch(/value/);
      expect(await secretNames(client)).not.toContain(name);
    } finally {
      await client.close();
    }
  });

  it('sets nothing when the operator declines, and says so', async () => {
    const client = await connect(form({ action: 'decline' }).elicit);
    try {
      const name = `${prefix}_DECLINED`;
      const set = answerOf(await client.callTool({ name: 'set_secret', arguments: { ...WHERE, name } }));
      expect(set).toEqual({
        isError: true,
        result: { error: `the operator did not give the value of secret ${name} in shop/staging (decline); nothing was set` },
      });
      expect(await secretNames(client)).not.toContain(name);
    } finally {
      await client.close();
    }
  });

  it('still needs the value from a client that does not elicit', async () => {
    const client = await connect();
    try {
      const set = answerOf(await client.callTool({ name: 'set_secret', arguments: { ...WHERE, name: `${prefix}_NO_FORM` } }));
      expect(set.isError).toBe(true);
      expect(String(set.result.error)).toMatch(/value/);
    } finally {
      await client.close();
    }
  });
});
