// Issue 21: who decides a change request, and when it runs. Another operator
// holding its permission approves it (never the requester, a viewer, one
// demoted meanwhile, the assistant or a session credential), and it runs once;
// a stale one refuses to run; one nobody decides expires; a decline carries
// its comment. Bad input gets its status and a sentence.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callTool, demoClients, mustCall } from '../helpers/tools.js';
import { answerOf, httpClient } from '../mcp/clients.js';

const shop = { project: 'shop' };
const production = { project: 'shop', environment: 'production' };

let server: TestServer;
let ada: Client, olive: Client, dev: Client, vic: Client, otto: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive, dev, vic } = demoClients(server));
  const created = await ada.post('/api/v1/operators', { name: 'otto' });
  otto = client(server.url, (created.body as { token: { token: string } }).token.token);
  await mustCall(ada, 'set_member_role', { ...shop, operator: 'otto', role: 'operator' });
  await mustCall(ada, 'set_environment_protection', { ...production, approvals_required: 2 });
});
afterAll(() => server.stop());

/** A change request `who` opens on production with `tool`. */
async function ask(who: Client, tool: string, input: Record<string, unknown>): Promise<string> {
  const result = await mustCall(who, tool, { ...production, ...input });
  expect(result).toMatchObject({ ran: false });
  return (result.change_request as { id: string }).id;
}
const secret = (name: string) => ask(olive, 'set_secret', { name, value: 'v' });
const approve = (who: Client, id: string, body: object = {}) => who.post(`/api/v1/change-requests/${id}/approve`, body);
const decline = (who: Client, id: string, body: object) => who.post(`/api/v1/change-requests/${id}/decline`, body);
const statusOf = async (id: string) => ((await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse).status;
const live = async () => ((await mustCall(vic, 'list_deployments', production)).deployments as { deployment: number; revision: number; operator: string; via: string }[])[0];

describe('who may approve', () => {
  it('never the requester', async () => {
    const id = await secret('OWN');
    expect(await approve(olive, id)).toMatchObject({
      status: 403,
      body: { error: 'you asked for this change; another operator who may change secrets on production of shop approves it (declining it withdraws it)' },
    });
    expect(await statusOf(id)).toBe('pending');
  });

  it('never a viewer, nor a developer on a protected environment', async () => {
    const id = await secret('VIEWED');
    expect(await approve(vic, id)).toMatchObject({ status: 403, body: { error: 'to approve it you need secret:write on production of shop; your role there is viewer' } });
    expect(await approve(dev, id)).toMatchObject({ status: 403, body: { error: 'to approve it you need secret:write on production of shop; your role there is developer' } });
    expect(await decline(vic, id, { comment: 'no' })).toMatchObject({ status: 403, body: { error: 'to decline it you need secret:write on production of shop; your role there is viewer' } });
    expect(await statusOf(id)).toBe('pending');
  });

  it('not an approver demoted between request and approval, nor for a requester demoted meanwhile', async () => {
    const id = await secret('DEMOTED');
    await mustCall(ada, 'set_member_role', { ...shop, operator: 'otto', role: 'developer' });
    expect(await approve(otto, id)).toMatchObject({ status: 403, body: { error: 'to approve it you need secret:write on production of shop; your role there is developer' } });
    await mustCall(ada, 'set_member_role', { ...shop, operator: 'otto', role: 'operator' });
    await mustCall(ada, 'set_member_role', { ...shop, operator: 'olive', role: 'viewer' });
    expect(await approve(otto, id)).toMatchObject({
      status: 403,
      body: { error: 'olive, who asked for it, may no longer change secrets on production of shop (their role there is viewer), so it cannot run; decline it' },
    });
    await mustCall(ada, 'set_member_role', { ...shop, operator: 'olive', role: 'operator' });
    expect(await statusOf(id)).toBe('pending');
    expect(await approve(otto, id)).toMatchObject({ status: 200, body: { status: 'approved', decided_by: 'otto' } });
  });

  it('runs the change once, as its requester, with the request, the approval and the effect audited', async () => {
    const before = await live();
    const id = await ask(olive, 'deploy', { path: 'app.yaml' });
    const approved = await approve(otto, id, { comment: 'diff read' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', sentence: 'approved by otto ("diff read"); deploy ran', result: { revision: 2, operator: 'olive', via: 'rest' } });
    expect(await live()).toMatchObject({ deployment: (before?.deployment ?? 0) + 1, revision: 2, operator: 'olive', via: 'rest' });
    expect(await approve(otto, id)).toMatchObject({ status: 409, body: { error: 'this change request was already decided: approved by otto ("diff read"); deploy ran' } });
    expect((await live())?.deployment).toBe((before?.deployment ?? 0) + 1);

    const { entries } = await mustCall(ada, 'read_audit', { ...shop, limit: 200 });
    const steps = (entries as { tool: string; operator: string; outcome: string; input: Record<string, unknown> }[])
      .filter((e) => e.input.change_request === id || (e.tool === 'deploy' && e.outcome === 'ok' && e.operator === 'olive'))
      .map((e) => [e.tool, e.operator, e.outcome]);
    expect(steps).toEqual([
      ['approve_change_request', 'otto', 'ok'],
      ['deploy', 'olive', 'ok'],
      ['change_request:open', 'olive', 'ok'],
    ]);
  });
});

describe('a change that fails when approved', () => {
  it('is a 200 whose request says so, and changes nothing', async () => {
    const id = await ask(olive, 'delete_secret', { name: 'DATABASE_URL' });
    const approved = await approve(otto, id);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'failed',
      result: { error: expect.stringMatching(/^DATABASE_URL is referred to by app.yaml, live in production/) },
      sentence: expect.stringMatching(/^approved by otto, but delete_secret failed: DATABASE_URL is referred to by app.yaml/),
    });
    expect((await mustCall(vic, 'list_secrets', production)).secrets).toContainEqual(expect.objectContaining({ name: 'DATABASE_URL' }));
  });
});

describe('a stale request', () => {
  it('refuses to run when the document has a newer revision than the one it would deploy', async () => {
    const id = await ask(olive, 'deploy', { path: 'app.yaml' });
    const current = await mustCall(vic, 'read_document', { ...shop, path: 'app.yaml' });
    await mustCall(ada, 'write_document', { ...shop, path: 'app.yaml', base_revision: current.revision, text: String(current.text).replace('port: 8080', 'port: 8081') });
    const before = await live();
    const refused = await approve(otto, id);
    expect(refused).toMatchObject({ status: 409, body: { error: 'this change request is stale, so it will not run: app.yaml has a newer revision, r3, than the r2 it would deploy; ask again to deploy the newest' } });
    expect(await live()).toEqual(before);
    expect((await ada.get(`/api/v1/change-requests/${id}`)).body).toMatchObject({ status: 'stale', sentence: expect.stringMatching(/^stale, so deploy never ran: app.yaml has a newer revision/) });
  });

  it('refuses to run when another deploy landed since', async () => {
    const first = await ask(olive, 'deploy', { path: 'app.yaml', revision: 3 });
    const second = await ask(olive, 'deploy', { path: 'app.yaml', revision: 1 });
    expect((await approve(otto, first)).status).toBe(200);
    const refused = await approve(otto, second);
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toMatch(/^this change request is stale, so it will not run: app.yaml changed in production since it was asked: deployment \d+, r3 is live there now, not deployment \d+, r2$/);
    expect((await live())?.revision).toBe(3);
  });
});

describe('declining', () => {
  it('keeps the comment, runs nothing, and is final', async () => {
    const id = await secret('DECLINED');
    expect(await decline(ada, id, {})).toMatchObject({ status: 422, body: { error: "body must have required property 'comment'" } });
    const declined = await decline(ada, id, { comment: 'not during the sale' });
    expect(declined).toMatchObject({ status: 200, body: { status: 'declined', decided_by: 'ada', comment: 'not during the sale', sentence: 'declined by ada ("not during the sale"); set_secret did not run' } });
    expect(await approve(otto, id)).toMatchObject({ status: 409 });
    expect(await decline(otto, id, { comment: 'again' })).toMatchObject({ status: 409 });
    expect((await mustCall(vic, 'list_secrets', production)).secrets).not.toContainEqual(expect.objectContaining({ name: 'DECLINED' }));
  });

  it('by the requester withdraws it', async () => {
    const id = await secret('WITHDRAWN');
    expect(await decline(olive, id, { comment: 'wrong value' })).toMatchObject({ status: 200, body: { status: 'withdrawn', sentence: 'withdrawn by olive ("wrong value"); set_secret did not run' } });
  });

  it("rejects the proposal that asked, so its thread stops waiting; rejecting a proposal withdraws its request", async () => {
    const open = async () => (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as ThreadResponse;
    const propose = async (thread: ThreadResponse, name: string) => {
      const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: `/tool set_secret {"name": "${name}", "value": "v"}` })).body as ThreadResponse;
      const accepted = (await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${answered.proposals[0]?.id}/accept`)).body as ThreadResponse;
      return { proposal: accepted.proposals[0]?.id ?? '', request: accepted.proposals[0]?.change_request?.id ?? '' };
    };
    const declinedThread = await open();
    const asked = await propose(declinedThread, 'PROPOSED_DECLINED');
    expect((await decline(olive, asked.request, { comment: 'use staging first' })).status).toBe(200);
    const after = (await ada.get(`/api/v1/assistant/threads/${declinedThread.id}`)).body as ThreadResponse;
    expect(after.state).toBe('idle');
    expect(after.proposals[0]).toMatchObject({ status: 'rejected', result: { error: 'its change request was declined by olive: use staging first' }, change_request: { status: 'declined' } });

    const rejectedThread = await open();
    const mine = await propose(rejectedThread, 'PROPOSED_REJECTED');
    expect((await ada.post(`/api/v1/assistant/threads/${rejectedThread.id}/proposals/${mine.proposal}/reject`)).status).toBe(200);
    expect((await ada.get(`/api/v1/change-requests/${mine.request}`)).body).toMatchObject({ status: 'withdrawn', decided_by: 'ada', comment: 'its proposal was rejected' });

    const deletedThread = await open();
    const gone = await propose(deletedThread, 'PROPOSED_DELETED');
    expect((await ada.delete(`/api/v1/assistant/threads/${deletedThread.id}`)).status).toBe(204);
    expect((await ada.get(`/api/v1/change-requests/${gone.request}`)).body).toMatchObject({ status: 'withdrawn', comment: 'its thread was deleted' });
  });
});

describe('deciding is a person’s act', () => {
  it('the assistant cannot approve: the tool is refused, never proposed', async () => {
    const id = await secret('NOT_BY_MODEL');
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as ThreadResponse;
    const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: `/tool approve_change_request {"id": "${id}"}` })).body as ThreadResponse;
    expect(answered.proposals).toEqual([]);
    expect(answered.messages.at(-1)?.text).toBe(
      "approve_change_request: error: approve_change_request decides a change request, which is a person's act: approve or decline it with your own token (the console, the REST API or your MCP client), never through the assistant or a session credential",
    );
    const described = await server.services.executor.describe({ id: '', name: 'ada', owner: true }, {}, { proposing: true });
    expect(described.filter((t) => t.name.endsWith('_change_request') && t.tag === 'write').map((t) => t.allowed)).toEqual([false, false]);
    expect(await statusOf(id)).toBe('pending');
  });

  it('the catalogue advises who may decide: olive and dev yes, vic (a viewer, who never holds deploy) no', async () => {
    const deciding = async (client: typeof vic) => {
      const { tools } = (await client.get('/api/v1/assistant/tools?project=shop')).body as { tools: { name: string; allowed: boolean }[] };
      return tools.filter((t) => t.name === 'approve_change_request' || t.name === 'decline_change_request').map((t) => t.allowed);
    };
    expect(await deciding(olive)).toEqual([true, true]);
    expect(await deciding(dev)).toEqual([true, true]);
    expect(await deciding(vic)).toEqual([false, false]);
  });

  it('a session credential cannot approve or decline, over REST or MCP', async () => {
    const id = await secret('NOT_BY_AGENT');
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as ThreadResponse;
    const credential = ((await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string }).token;
    const session = client(server.url, credential);
    const sentence = "deciding a change request is a person's act, and this is a conversation's session credential; approve or decline it with your own token";
    expect(await approve(session, id)).toMatchObject({ status: 403, body: { error: sentence } });
    expect(await decline(session, id, { comment: 'x' })).toMatchObject({ status: 403, body: { error: sentence } });
    expect((await session.get(`/api/v1/change-requests/${id}`)).status).toBe(401);
    const agent: McpClient = await httpClient(server.url, credential);
    try {
      for (const name of ['approve_change_request', 'decline_change_request']) {
        const answer = answerOf(await agent.callTool({ name, arguments: { id, comment: 'x' } }));
        expect(answer, name).toEqual({ isError: true, result: { error: expect.stringContaining("decides a change request, which is a person's act") } });
      }
    } finally {
      await agent.close();
    }
    expect(await statusOf(id)).toBe('pending');
    // The same person with their own MCP client decides.
    const own = await httpClient(server.url, server.demoTokens.ada ?? '');
    try {
      expect(answerOf(await own.callTool({ name: 'approve_change_request', arguments: { id } }))).toMatchObject({ isError: false, result: { status: 'approved', decided_by: 'ada' } });
    } finally {
      await own.close();
    }
  });
});

describe('expiry', () => {
  it('is read from AION_CHANGE_REQUEST_TTL', () => {
    expect(readConfig({}, { AION_CHANGE_REQUEST_TTL: '90m' }).changeRequestTtlMs).toBe(90 * 60_000);
    expect(() => readConfig({}, { AION_CHANGE_REQUEST_TTL: 'a day' })).toThrow('AION_CHANGE_REQUEST_TTL must be a duration like 10m, 30s or 500ms; got a day');
  });

  it('lasts AION_CHANGE_REQUEST_TTL (24 h by default), then expires: it cannot be approved and its proposal fails', async () => {
    const id = await secret('EXPIRING');
    const asked = (await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse;
    expect(Date.parse(asked.expires_at) - Date.parse(asked.created_at)).toBe(24 * 3600 * 1000);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production' })).body as ThreadResponse;
    const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool set_secret {"name": "EXPIRING_TOO", "value": "v"}' })).body as ThreadResponse;
    const held = (await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${answered.proposals[0]?.id}/accept`)).body as ThreadResponse;
    const other = held.proposals[0]?.change_request?.id ?? '';

    await server.services.db.execute(sql`update change_requests set expires_at = now() - interval '1 second' where id in (${id}, ${other})`);
    expect(await approve(otto, id)).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^this change request was already decided: expired at \S+: nobody approved or declined it in time, so set_secret did not run$/) } });
    expect(await statusOf(other)).toBe('expired');
    const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as ThreadResponse;
    expect(after.state).toBe('idle');
    expect(after.proposals[0]).toMatchObject({ status: 'failed', change_request: { status: 'expired' } });
  });
});

describe('bad input', () => {
  it('gets its status and a sentence, never a 500', async () => {
    const id = await secret('BAD_INPUT');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const cases: [Promise<{ status: number; body: unknown }>, number, string][] = [
      [ada.get('/api/v1/change-requests/not-a-uuid'), 404, 'no such change request: not-a-uuid; GET /api/v1/change-requests lists those you may see'],
      [ada.get(`/api/v1/change-requests/${unknown}`), 404, `no such change request: ${unknown}; GET /api/v1/change-requests lists those you may see`],
      [approve(ada, unknown), 404, `no such change request: ${unknown}; GET /api/v1/change-requests lists those you may see`],
      [ada.get('/api/v1/change-requests?for=you'), 422, 'querystring.for must be equal to one of the allowed values'],
      [ada.get('/api/v1/change-requests?limit=0'), 422, 'querystring.limit must be >= 1'],
      [ada.get('/api/v1/change-requests?project=nope'), 404, 'no such project: nope'],
      [approve(ada, id, { comment: 5 }), 422, 'body.comment must be string'],
      [approve(ada, id, { extra: 1 }), 422, 'body has an unknown property extra; remove it'],
      [decline(ada, id, { comment: '' }), 422, 'body.comment must NOT have fewer than 1 characters'],
      [decline(ada, id, { comment: 'x'.repeat(2001) }), 422, 'body.comment must NOT have more than 2000 characters'],
      [ada.get(`/api/v1/change-requests/${'x'.repeat(101)}`), 404, 'nothing here is named by params.id: it must NOT have more than 100 characters'],
    ];
    for (const [pending, status, sentence] of cases) {
      const answer = await pending;
      expect([answer.status, answer.body]).toEqual([status, { error: sentence }]);
    }
    const raw = await request(server.url, 'POST', `/api/v1/change-requests/${id}/approve`, { token: server.demoTokens.ada, rawBody: '{"comment":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect((await callTool(ada, 'approve_change_request', { id, comment: 7 })).status).toBe(422);
    expect(await statusOf(id)).toBe('pending');
  });
});

describe('metrics', () => {
  it('count requests opened, approved, declined, expired, and time to decision', async () => {
    const metrics = (await request(server.url, 'GET', '/metrics')).text;
    for (const event of ['opened', 'approved', 'declined', 'withdrawn', 'expired', 'stale']) {
      expect(metrics, event).toMatch(new RegExp(`^aion_change_requests_total\\{event="${event}"\\} [1-9]`, 'm'));
    }
    expect(metrics).toMatch(/^aion_change_request_decision_seconds_count\{outcome="approved"\} [1-9]/m);
    expect(metrics).toMatch(/^aion_change_request_decision_seconds_count\{outcome="declined"\} [1-9]/m);
  });
});
