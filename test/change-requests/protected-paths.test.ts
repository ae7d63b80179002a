// DESIGN §10.16 on every path (issue 34): where production requires two
// approvals, each change to it — deploy, rollback, secret set and delete —
// opens a change request and runs nothing, whichever way it comes: a REST
// tool call, an MCP client, an assistant proposal accepted one by one or
// with accept-all. Every change below could run (a rollback has an earlier
// revision to go back to), so only the gate stands between it and production.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import type { ThreadResponse } from '../../src/wire/thread.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { answerOf, httpClient } from '../mcp/clients.js';

const shop = { project: 'shop' };
const production = { project: 'shop', environment: 'production' };

let server: TestServer;
let ada: Client, olive: Client, vic: Client;
let mcp: McpClient;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive, vic } = demoClients(server));
  mcp = await httpClient(server.url, server.demoTokens.olive ?? '');
  // Production has had r1 and r2 live (a rollback can run), a revision r3 waits to be deployed, and a secret may be deleted.
  await mustCall(ada, 'deploy', { ...production, path: 'app.yaml' });
  const app = await mustCall(ada, 'read_document', { ...shop, path: 'app.yaml' });
  await mustCall(ada, 'write_document', { ...shop, path: 'app.yaml', text: `${String(app.text)}# r3\n`, base_revision: app.revision });
  for (const via of VIAS) await mustCall(ada, 'set_secret', { ...production, name: `OLD_${via.toUpperCase().replace('-', '_')}`, value: 'old' });
  await mustCall(ada, 'set_environment_protection', { ...production, approvals_required: 2 });
});
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

/** What production holds: its deployments and its secrets. Nothing a request opened may change it. */
async function productionNow() {
  const deployments = await mustCall(vic, 'list_deployments', production);
  const secrets = await mustCall(vic, 'list_secrets', production);
  return { deployments: deployments.deployments, secrets: secrets.secrets };
}

const VIAS = ['rest', 'mcp', 'accept', 'accept-all'] as const;
type Way = (typeof VIAS)[number];

/** Each change to production, with its input for one way of asking (a secret's name of its own). */
const CHANGES: Record<string, (way: Way) => Record<string, unknown>> = {
  deploy: () => ({ ...production, path: 'app.yaml' }),
  rollback: () => ({ ...production, path: 'app.yaml' }),
  set_secret: (way) => ({ ...production, name: `NEW_${way.toUpperCase().replace('-', '_')}`, value: 'new' }),
  delete_secret: (way) => ({ ...production, name: `OLD_${way.toUpperCase().replace('-', '_')}` }),
};

/** The proposal the fake model makes in a new thread of ada's, for `tool` with `input`. */
async function proposed(tool: string, input: Record<string, unknown>): Promise<{ thread: string; proposal: string }> {
  const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as ThreadResponse).id;
  const answered = await ada.post(`/api/v1/assistant/threads/${thread}/messages`, { text: `/tool ${tool} ${JSON.stringify(input)}` });
  expect(answered.status, answered.text).toBe(200);
  const proposal = (answered.body as ThreadResponse).proposals[0];
  expect(proposal?.status, JSON.stringify(proposal)).toBe('pending');
  return { thread, proposal: proposal?.id ?? '' };
}

/** Asks for the change one way; answers the change request it opened, with who asked and how it came. */
async function ask(way: Way, tool: string, input: Record<string, unknown>): Promise<{ id: string; by: string; via: string }> {
  if (way === 'rest') {
    const result = await mustCall(olive, tool, input);
    expect(result, JSON.stringify(result)).toMatchObject({ ran: false, change_request: { status: 'pending' } });
    return { id: (result.change_request as { id: string }).id, by: 'olive', via: 'rest' };
  }
  if (way === 'mcp') {
    const answer = answerOf(await mcp.callTool({ name: tool, arguments: input }));
    expect(answer, JSON.stringify(answer)).toMatchObject({ isError: false, result: { ran: false, change_request: { status: 'pending' } } });
    return { id: (answer.result.change_request as { id: string }).id, by: 'olive', via: 'mcp' };
  }
  const { thread, proposal } = await proposed(tool, input);
  const path = way === 'accept' ? `proposals/${proposal}/accept` : 'proposals/accept-all';
  const decided = await ada.post(`/api/v1/assistant/threads/${thread}/${path}`);
  expect(decided.status, decided.text).toBe(200);
  const after = (decided.body as ThreadResponse).proposals.find((p) => p.id === proposal);
  expect(after, JSON.stringify(after)).toMatchObject({ status: 'accepted', requested: true, change_request: { status: 'pending' } });
  return { id: after?.change_request?.id ?? '', by: 'ada', via: 'assistant' };
}

describe('a change to an environment that requires two approvals', () => {
  for (const [tool, inputFor] of Object.entries(CHANGES)) {
    for (const way of VIAS) {
      it(`${tool} by ${way}: opens a change request, and nothing runs`, async () => {
        const before = await productionNow();
        const opened = await ask(way, tool, inputFor(way));
        const request = (await ada.get(`/api/v1/change-requests/${opened.id}`)).body as ChangeRequestResponse;
        expect(request).toMatchObject({ tool, status: 'pending', requested_by: opened.by, via: opened.via, project: 'shop', environment: 'production' });
        expect(await productionNow()).toEqual(before);
      });
    }
  }
});
