// Issue 21: where production requires two approvals, a change becomes a
// change request whatever path starts it — a REST tool call, the console's
// own action, an MCP client, an accepted proposal — and nothing runs. The
// spec's accept route still answers as the spec says. An admin sets the rule.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRequests } from '../../src/store/schema.js';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callTool, demoClients, mustCall, mustFail } from '../helpers/tools.js';
import { answerOf, httpClient } from '../mcp/clients.js';

const shop = { project: 'shop' };
const production = { project: 'shop', environment: 'production' };
const CANARY = 'canary-7f3e-console-secret';

let server: TestServer;
let ada: Client, olive: Client, vic: Client;
let mcp: McpClient;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive, vic } = demoClients(server));
  mcp = await httpClient(server.url, server.demoTokens.olive ?? '');
});
afterAll(async () => {
  await mcp.close();
  await server.stop();
});

const view = async (who: Client, id: string) => {
  const answer = await who.get(`/api/v1/change-requests/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ChangeRequestResponse;
};
const opened = (result: Record<string, unknown>) => (result.change_request as { id: string; status: string }).id;
const deploymentsOf = async (environment: string) =>
  ((await mustCall(ada, 'list_deployments', { ...shop, environment })).deployments as { deployment: number }[]).length;

describe('approvals_required', () => {
  it('is set by an admin on a protected environment, audited, and shown with the environments', async () => {
    expect(await mustFail(olive, 'set_environment_protection', { ...production, approvals_required: 2 })).toBe(
      'you need environment:manage on shop; your role there is operator',
    );
    expect(await mustFail(ada, 'set_environment_protection', { ...shop, environment: 'staging', approvals_required: 2 })).toBe(
      'staging is not protected, and only a protected environment may require 2 approvals; send protected: true as well',
    );
    expect(await mustFail(ada, 'set_environment_protection', production)).toBe('name protected, approvals_required, requester_may_approve or several: there is nothing to change');
    expect(await mustCall(ada, 'set_environment_protection', { ...production, approvals_required: 2 })).toEqual({
      project: 'shop',
      environment: 'production',
      protected: true,
      approvals_required: 2,
      requester_may_approve: false,
      was: { protected: true, approvals_required: 1, requester_may_approve: false },
    });
    const project = (await vic.get('/api/v1/projects/shop')).body as { environments: unknown[] };
    expect(project.environments).toHaveLength(2);
    expect(project.environments).toEqual(
      expect.arrayContaining([
        { name: 'staging', protected: false, approvals_required: 1, requester_may_approve: false },
        { name: 'production', protected: true, approvals_required: 2, requester_may_approve: false },
      ]),
    );
    const listed = await mustCall(vic, 'list_environments', shop);
    expect(listed.environments).toContainEqual(expect.objectContaining({ name: 'production', approvals_required: 2 }));
    const { entries } = await mustCall(ada, 'read_audit', { ...shop, tool: 'set_environment_protection' });
    expect(entries).toContainEqual(expect.objectContaining({ operator: 'ada', outcome: 'ok', environment: 'production', input: { ...production, approvals_required: 2 } }));
  });
});

describe('a change to production', () => {
  it('over REST is a 200 whose result names the change request opened, and nothing runs', async () => {
    const before = await deploymentsOf('production');
    const answer = await callTool(olive, 'deploy', { ...production, path: 'app.yaml' });
    expect(answer).toMatchObject({ status: 200, is_error: false, result: { ran: false, change_request: { status: 'pending' } } });
    expect(String(answer.result.message)).toMatch(/^change request \S+ opened: production of shop requires 2 approvals, so deploy waits for another operator who may deploy there/);
    expect(await deploymentsOf('production')).toBe(before);

    const request = await view(olive, opened(answer.result));
    expect(request).toMatchObject({
      project: 'shop',
      environment: 'production',
      tool: 'deploy',
      input: { ...production, path: 'app.yaml' },
      permission: 'deploy',
      requested_by: 'olive',
      via: 'rest',
      reason: null,
      thread: null,
      status: 'pending',
      change: { kind: 'document', path: 'app.yaml', rollback: false, live: { revision: 1, deployment: 1 }, revision: 2, current_revision: 2, pinned: false },
      verdict: { ok: true, diagnostics: [] },
      can_approve: false,
      can_decline: true,
    });
    expect(request.rows).toEqual([
      { k: 'project', v: 'shop' },
      { k: 'environment', v: 'production' },
      { k: 'path', v: 'app.yaml' },
      { k: 'revision', v: 'current' },
    ]);
    expect(request.change.kind === 'document' && request.change.diff).toContain('-  new_checkout: false\n+  new_checkout: true');
    expect(request.refusal).toBe('you asked for this change; another operator who may deploy on production of shop approves it (declining it withdraws it)');
    expect(await view(ada, request.id)).toMatchObject({ can_approve: true, refusal: null });
    expect(await view(vic, request.id)).toMatchObject({ can_approve: false, refusal: 'to approve it you need deploy on production of shop; your role there is viewer' });
  });

  it("from the console's own action keeps its reason, and a secret's name but never its value", async () => {
    const answer = await olive.post(
      '/api/v1/assistant/tools/set_secret',
      { ...production, name: 'API_KEY', value: CANARY, reason: 'rotate the payment key' },
      { headers: { 'x-aion-via': 'console' } },
    );
    expect(answer.body).toMatchObject({ is_error: false, result: { ran: false } });
    const request = await view(olive, opened((answer.body as { result: Record<string, unknown> }).result));
    expect(request).toMatchObject({
      via: 'console',
      reason: 'rotate the payment key',
      input: { ...production, name: 'API_KEY', value: '[redacted]', reason: 'rotate the payment key' },
      change: { kind: 'secret', name: 'API_KEY', action: 'set', version: null },
      verdict: null,
    });
    expect((await mustCall(vic, 'list_secrets', production)).secrets).not.toContainEqual(expect.objectContaining({ name: 'API_KEY' }));
    await server.services.audit.flush();
    const stored = await server.services.db.select().from(changeRequests).where(eq(changeRequests.id, request.id));
    expect(stored[0]?.sealed).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(CANARY);
    expect(JSON.stringify(await server.services.db.execute('select * from audit_entries'))).not.toContain(CANARY);
    expect(server.logs.join('\n')).not.toContain(CANARY);
  });

  it('from an MCP client (the SDK over /mcp) opens a request too', async () => {
    const answer = answerOf(await mcp.callTool({ name: 'set_secret', arguments: { ...production, name: 'MCP_KEY', value: 'v' } }));
    expect(answer).toMatchObject({ isError: false, result: { ran: false, change_request: { status: 'pending' } } });
    expect(await view(ada, opened(answer.result))).toMatchObject({ via: 'mcp', requested_by: 'olive', tool: 'set_secret' });
    expect((await mustCall(vic, 'list_secrets', production)).secrets).not.toContainEqual(expect.objectContaining({ name: 'MCP_KEY' }));
  });

  it('describes every write that takes an environment, or refuses it as the tool would', async () => {
    const inputs: Record<string, Record<string, unknown>> = {
      deploy: { ...production, path: 'app.yaml', revision: 1 },
      rollback: { ...production, path: 'app.yaml' },
      set_secret: { ...production, name: 'ANY', value: 'v' },
      delete_secret: { ...production, name: 'DATABASE_URL' },
      set_environment_protection: { ...production, protected: false },
    };
    const environmentWrites = CATALOGUE.filter((t) => t.tag === 'write' && t.scope === 'environment').map((t) => t.name);
    expect(environmentWrites.sort()).toEqual(Object.keys(inputs).sort());
    const results = Object.fromEntries(await Promise.all(Object.entries(inputs).map(async ([tool, input]) => [tool, (await callTool(ada, tool, input)).result])));
    // Rollback is refused at once, as the tool would refuse it: production has only ever had r1.
    expect(results.rollback).toEqual({ error: 'app.yaml has been live in production only at r1; there is no earlier revision to roll back to' });
    for (const tool of ['deploy', 'set_secret', 'delete_secret', 'set_environment_protection']) {
      expect(results[tool], tool).toMatchObject({ ran: false, change_request: { status: 'pending' } });
    }
    const protection = await view(ada, opened(results.set_environment_protection as Record<string, unknown>));
    expect(protection.change).toEqual({
      kind: 'protection',
      protected: { from: true, to: false },
      approvals_required: { from: 2, to: 1 },
      requester_may_approve: { from: false, to: false },
    });
    // Staging requires one approval: it runs at once, as ever.
    expect(await mustCall(olive, 'set_secret', { ...shop, environment: 'staging', name: 'AT_ONCE', value: 'v' })).toMatchObject({ secret: { version: 1 } });
  });
});

describe('an accepted proposal', () => {
  let thread: ThreadResponse;
  let proposal: string;

  it('answers the spec’s accept route with 200 and the thread; the proposal is requested (shown accepted), names its change request, and holds nothing', async () => {
    thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as ThreadResponse;
    const text = 'ship the checkout secret\n/tool set_secret {"environment": "production", "name": "FROM_THREAD", "value": "<secret>tv-1</secret>"}';
    const answered = (await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text })).body as ThreadResponse;
    proposal = answered.proposals[0]?.id ?? '';
    const accepted = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    const after = accepted.body as ThreadResponse;
    expect(after.id).toBe(thread.id);
    expect(after.state).toBe('idle');
    const [waiting] = after.proposals;
    expect(waiting).toMatchObject({ id: proposal, status: 'accepted', requested: true, change_request: { status: 'pending' } });
    expect(waiting?.change_request?.sentence).toMatch(/^production of shop requires 2 approvals, so set_secret waits for another operator who may change secrets there to approve it/);

    const request = await view(ada, waiting?.change_request?.id ?? '');
    expect(request).toMatchObject({ via: 'assistant', thread: thread.id, proposal, requested_by: 'ada', reason: 'ship the checkout secret\n/tool set_secret {"environment": "production", "name": "FROM_THREAD", "value": "[secret:1]"}' });
    expect((await mustCall(vic, 'list_secrets', production)).secrets).not.toContainEqual(expect.objectContaining({ name: 'FROM_THREAD' }));
  });

  it('is not accepted twice, nor by accept-all: it waits on its change request (409)', async () => {
    const again = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal}/accept`);
    expect(again.status).toBe(409);
    expect((again.body as { error: string }).error).toMatch(/^this proposal was accepted already and waits on change request \S+: other operators approve or decline it$/);
    const all = await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`);
    expect((all.body as ThreadResponse).proposals[0]).toMatchObject({ status: 'accepted', requested: true, change_request: { status: 'pending' } });
    const requests = ((await ada.get('/api/v1/change-requests?by=me')).body as ChangeRequestResponse[]).filter((r) => r.proposal === proposal);
    expect(requests).toHaveLength(1);
  });

  it('becomes accepted with the result once another operator approves, the parked value set, the thread told', async () => {
    const adaId = (await server.services.db.execute("select id from operators where name = 'ada'")) as unknown as { rows: { id: string }[] };
    const heard: string[] = [];
    const unsubscribe = server.services.changes.subscribe((topic) => heard.push(topic));
    const id = ((await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as ThreadResponse).proposals[0]?.change_request?.id ?? '';
    const approved = await olive.post(`/api/v1/change-requests/${id}/approve`, { comment: 'checked' });
    unsubscribe();
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decided_by: 'olive', comment: 'checked', sentence: 'approved by olive ("checked"); set_secret ran', result: { secret: { name: 'FROM_THREAD', version: 1 } } });
    const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as ThreadResponse;
    expect(after.state).toBe('idle');
    expect(after.proposals[0]).toMatchObject({ status: 'accepted', result: { secret: { name: 'FROM_THREAD', version: 1 } }, change_request: { id, status: 'approved' } });
    expect(heard).toEqual(expect.arrayContaining([`change-requests:shop:${id}:approved`, `threads:${adaId.rows[0]?.id}:${thread.id}:decision`]));

    const project = await server.services.projects.open({ id: '', name: 'ada', owner: true }, 'shop');
    const productionId = project.environments.find((e) => e.name === 'production')?.id ?? '';
    const { openSecrets } = await import('../../src/domain/secrets.js');
    expect((await openSecrets(server.services.db, server.services.secretBox, productionId, ['FROM_THREAD'])).get('FROM_THREAD')?.value).toBe('tv-1');
  });
});

describe('following change requests', () => {
  it('streams each one opened or decided to the members of its project', async () => {
    expect(await client(server.url, null).get('/api/v1/changes')).toMatchObject({ status: 401, body: { error: 'bad token' } });
    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/v1/changes`, { headers: { authorization: `Bearer ${server.demoTokens.vic}` }, signal: abort.signal });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    let text = '';
    const read = async (until: string) => {
      while (!text.includes(until)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await read('following your changes');
    const id = opened(await mustCall(olive, 'set_secret', { ...production, name: 'STREAMED', value: 'v' }));
    await read(id);
    abort.abort();
    expect(text).toContain(`event: change_request\ndata: ${JSON.stringify({ project: 'shop', id, status: 'pending' })}`);
  });

  it('lists those waiting for me, asked by me, and all of a project', async () => {
    const ids = (answer: { body: unknown }) => (answer.body as ChangeRequestResponse[]).map((r) => r.id);
    const forOlive = (await olive.get('/api/v1/change-requests?for=me')).body as ChangeRequestResponse[];
    expect(forOlive.every((r) => r.status === 'pending' && r.requested_by !== 'olive' && r.can_approve)).toBe(true);
    expect(forOlive.length).toBeGreaterThan(0);
    const byOlive = (await olive.get('/api/v1/change-requests?by=me')).body as ChangeRequestResponse[];
    expect(byOlive.length).toBeGreaterThan(3);
    expect(byOlive.every((r) => r.requested_by === 'olive')).toBe(true);
    expect(ids(await ada.get('/api/v1/change-requests?for=me'))).toEqual(expect.arrayContaining(byOlive.filter((r) => r.status === 'pending').map((r) => r.id)));
    expect(ids(await vic.get('/api/v1/change-requests?for=me'))).toEqual([]);
    const all = (await vic.get('/api/v1/change-requests?limit=200')).body as ChangeRequestResponse[];
    expect((await vic.get('/api/v1/change-requests?project=shop&limit=200')).body).toHaveLength(all.length);
    expect((await vic.get('/api/v1/change-requests?project=shop&status=approved')).body).toEqual([expect.objectContaining({ status: 'approved' })]);
    const tools = await mustCall(olive, 'list_change_requests', { waiting_for_me: true });
    expect((tools.change_requests as ChangeRequestResponse[]).map((r) => r.id)).toEqual(forOlive.map((r) => r.id));
    const one = await mustCall(vic, 'get_change_request', { id: forOlive[0]?.id ?? '' });
    expect(one).toMatchObject({ id: forOlive[0]?.id, can_approve: false });
  });

  it('shows a project’s requests to its members only', async () => {
    const created = await client(server.url, server.adminToken).post('/api/v1/operators', { name: 'stranger' });
    const stranger = client(server.url, (created.body as { token: { token: string } }).token.token);
    const [any] = (await vic.get('/api/v1/change-requests')).body as ChangeRequestResponse[];
    expect(await stranger.get(`/api/v1/change-requests/${any?.id}`)).toMatchObject({ status: 404, body: { error: `no such change request: ${any?.id}; GET /api/v1/change-requests lists those you may see` } });
    expect((await stranger.get('/api/v1/change-requests')).body).toEqual([]);
    expect(await stranger.get('/api/v1/change-requests?project=shop')).toMatchObject({ status: 404, body: { error: 'no such project: shop' } });
  });
});
