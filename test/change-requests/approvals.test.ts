// Issue 29, DESIGN.md §14: approvals as teams use them. `approvals_required` N
// counts distinct people, the requester's ask being the first, so a request
// runs once N − 1 others approved it; nobody approves twice; the requester
// approves only where the environment says so (default no); approvals given
// are dismissed when what the request would change moves. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { callTool, demoClients, mustCall } from '../helpers/tools.js';

const shop = { project: 'shop' };

describe.each(STORE_KINDS)('approvals (%s)', (kind) => {
  let server: TestServer;
  let ada: Client, olive: Client, otto: Client;

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada, olive } = demoClients(server));
    const created = await ada.post('/api/v1/operators', { name: 'otto' });
    otto = client(server.url, (created.body as { token: { token: string } }).token.token);
    await mustCall(ada, 'set_member_role', { ...shop, operator: 'otto', role: 'operator' });
  });
  afterAll(() => server?.stop());

  /** A new protected environment of shop with this rule (set while it still runs at once). */
  async function environment(name: string, rule: { approvals_required: number; requester_may_approve?: boolean }) {
    await mustCall(ada, 'create_environment', { ...shop, name, protected: true });
    await mustCall(ada, 'set_environment_protection', { ...shop, environment: name, ...rule });
    return { ...shop, environment: name };
  }
  async function ask(who: Client, where: object, tool: string, input: Record<string, unknown>): Promise<string> {
    const result = await mustCall(who, tool, { ...where, ...input });
    expect(result).toMatchObject({ ran: false });
    return (result.change_request as { id: string }).id;
  }
  const approve = (who: Client, id: string, body: object = {}) => who.post(`/api/v1/change-requests/${id}/approve`, body);
  const read = async (id: string) => (await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse;
  const secrets = async (where: Record<string, unknown>) => ((await mustCall(ada, 'list_secrets', where)).secrets as { name: string }[]).map((s) => s.name);

  it('N = 3 waits for two distinct approvers besides the requester; nobody approves twice', async () => {
    const three = await environment('three', { approvals_required: 3 });
    const id = await ask(olive, three, 'set_secret', { name: 'TRIPLE', value: 'v' });

    const first = await approve(otto, id, { comment: 'looks right' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      status: 'pending',
      approvals_required: 3,
      approvals: [{ by: 'otto', comment: 'looks right', at: expect.any(String), dismissed_because: null }],
      sentence: 'three of shop requires 3 approvals, so set_secret waits for another operator who may change secrets there to approve it (approved so far by otto)',
    });
    expect(await secrets(three)).toEqual([]);
    // One person's second approval is not a second approver.
    expect(await approve(otto, id)).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^you approved this change already; three of shop requires 3 approvals/) } });
    expect((await otto.get(`/api/v1/change-requests/${id}`)).body).toMatchObject({ can_approve: false, refusal: expect.stringMatching(/^you approved this change already/) });
    const forOtto = (await otto.get('/api/v1/change-requests?for=me')).body as ChangeRequestResponse[];
    expect(forOtto.map((r) => r.id)).not.toContain(id);
    // Nor is the requester, here.
    expect((await approve(olive, id)).status).toBe(403);
    expect(await secrets(three)).toEqual([]);

    const second = await approve(ada, id);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ status: 'approved', decided_by: 'ada', approvals: [{ by: 'otto' }, { by: 'ada' }] });
    expect(await secrets(three)).toEqual(['TRIPLE']);
    const { entries } = await mustCall(ada, 'read_audit', { ...shop, tool: 'approve_change_request' });
    const mine = (entries as { operator: string; input: Record<string, unknown> }[]).filter((e) => e.input.change_request === id);
    expect(mine.map((e) => [e.operator, e.input.outcome])).toEqual([
      ['ada', 'approved'],
      ['otto', 'partial'],
    ]);
  });

  it('N = 2 keeps its meaning: the requester and one other', async () => {
    const two = await environment('two', { approvals_required: 2 });
    const id = await ask(olive, two, 'set_secret', { name: 'PAIR', value: 'v' });
    expect(await read(id)).toMatchObject({ approvals_required: 2, approvals: [] });
    expect(await approve(otto, id)).toMatchObject({ status: 200, body: { status: 'approved', approvals: [{ by: 'otto' }] } });
  });

  it('the requester approves only where the environment says so (default no)', async () => {
    const held = await environment('not-self', { approvals_required: 2 });
    const own = await ask(olive, held, 'set_secret', { name: 'OWN', value: 'v' });
    expect((await olive.get(`/api/v1/change-requests/${own}`)).body).toMatchObject({ can_approve: false });
    expect(await approve(olive, own)).toMatchObject({ status: 403, body: { error: expect.stringMatching(/^you asked for this change/) } });

    const self = await environment('self', { approvals_required: 2, requester_may_approve: true });
    expect((await mustCall(ada, 'list_environments', shop)).environments).toContainEqual({
      name: 'self',
      protected: true,
      approvals_required: 2,
      requester_may_approve: true,
      live: expect.any(Array),
    });
    const id = await ask(olive, self, 'set_secret', { name: 'SELF', value: 'v' });
    expect(((await olive.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse).can_approve).toBe(true);
    expect(((await olive.get('/api/v1/change-requests?for=me')).body as ChangeRequestResponse[]).map((r) => r.id)).toContain(id);
    expect(await approve(olive, id)).toMatchObject({ status: 200, body: { status: 'approved', approvals: [{ by: 'olive' }] } });
    expect(await secrets(self)).toEqual(['SELF']);

    // The setting means something only where approvals are required.
    const refused = await callTool(ada, 'set_environment_protection', { ...shop, environment: 'two', approvals_required: 1, requester_may_approve: true });
    expect(refused).toMatchObject({ is_error: true, result: { error: expect.stringMatching(/requires no approvals/) } });
    expect((await callTool(ada, 'set_environment_protection', { ...shop, environment: 'two', approvals_required: 7 })).is_error).toBe(true);
  });

  it('dismisses the approvals given when what the request would change moves', async () => {
    const three = await environment('moving', { approvals_required: 3 });
    await mustCall(ada, 'set_secret', { ...shop, environment: 'moving', name: 'DATABASE_URL', value: 'postgres://db' });
    const id = await ask(olive, three, 'deploy', { path: 'app.yaml' });
    expect(await approve(otto, id)).toMatchObject({ status: 200, body: { status: 'pending', approvals: [{ by: 'otto', dismissed_because: null }] } });

    // The document is saved again: the unpinned deploy would put another revision live.
    const current = await mustCall(ada, 'read_document', { ...shop, path: 'app.yaml' });
    await mustCall(ada, 'write_document', { ...shop, path: 'app.yaml', base_revision: current.revision, text: `${String(current.text)}\n# saved again\n` });
    await expect.poll(async () => (await read(id)).stale, { timeout: 5000 }).toBe(true);
    const stale = await read(id);
    expect(stale.approvals).toEqual([{ by: 'otto', comment: null, at: expect.any(String), dismissed_because: stale.stale_reason }]);
    expect(stale.sentence).toMatch(/^stale, so deploy will not run/);
    expect((await approve(ada, id)).status).toBe(409);
  });
});
