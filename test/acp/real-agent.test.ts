// A real ACP agent, when AION_TEST_ACP_AGENT names its command (words split
// without a shell; AION_TEST_ACP_PASS_ENV may name variables to pass it):
// it initializes, opens a session with Aion's /mcp (and lists Aion's tools
// there), and a prompt answers 200, or 503 with a sentence when its model
// cannot be reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const COMMAND = process.env.AION_TEST_ACP_AGENT?.trim() ?? '';
const REASON = 'a real ACP agent (skipped: set AION_TEST_ACP_AGENT to its command to run it)';

describe.skipIf(COMMAND === '')(COMMAND === '' ? REASON : `a real ACP agent: ${COMMAND}`, () => {
  let server: TestServer;
  let ada: Client;
  beforeAll(async () => {
    const [command, ...args] = COMMAND.split(/\s+/);
    const passEnv = (process.env.AION_TEST_ACP_PASS_ENV ?? '').split(',').filter(Boolean);
    server = await startTestServer('pglite', {
      demo: true,
      env: {
        AION_AGENTS: JSON.stringify({ real: { command, args, pass_env: passEnv } }),
        AION_AGENT_TURN_TIMEOUT: '90s',
        ...Object.fromEntries(passEnv.map((name) => [name, process.env[name] ?? ''])),
      },
    });
    ada = client(server.url, server.demoTokens.ada ?? '');
  }, 120_000);
  afterAll(() => server?.stop());

  it('initializes, opens a session with Aion’s /mcp, and answers a prompt or says why not', async () => {
    const listed = (await ada.get('/api/v1/assistant/agents')).body as { name: string; available: boolean }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: 'real', available: true }));
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'real' })).body as { id: string };
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: 'List the environments of project shop.' });
    console.error(`real agent answered ${answer.status}: ${answer.text.slice(0, 600)}`);
    expect([200, 503]).toContain(answer.status);
    if (answer.status === 503) expect((answer.body as { error: string }).error).toMatch(/your message is kept/);
    // The agent opened Aion's /mcp with the thread's credential and asked for its tools.
    const mcpCalls = server.logs.filter((line) => line.includes('"url":"/mcp"'));
    console.error(`/mcp requests: ${mcpCalls.length}`);
    expect(mcpCalls.length).toBeGreaterThan(0);
  }, 180_000);
});
