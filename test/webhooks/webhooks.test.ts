// Issue 29: the people who must decide hear of it. A project's admin adds an
// outgoing webhook; each change request opened or decided (and each proposal
// left waiting) is posted to it, signed, retried with backoff while the
// receiver fails, recorded with its tries, and linked to the console; a
// receiver that stays down ends failed with every try counted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryResponse, WebhookResponse } from '../../src/wire/webhook.js';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './receiver.js';

const production = { project: 'shop', environment: 'production' };
const CONSOLE = 'https://aion.example.com/ops';
const SECRET_VALUE = 'never-in-a-webhook-7f3a';

let server: TestServer;
let ada: Client, olive: Client, vic: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer('pglite', {
    demo: true,
    env: { AION_WEBHOOK_ALLOW_PRIVATE: '1', AION_WEBHOOK_BACKOFF: '100ms', AION_WEBHOOK_ATTEMPTS: '4', AION_WEBHOOK_TIMEOUT: '2s', AION_PUBLIC_URL: `${CONSOLE}/` },
  });
  ({ ada, olive, vic } = demoClients(server));
  await mustCall(ada, 'set_environment_protection', { ...production, approvals_required: 2 });
});
afterAll(async () => {
  await server.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A receiver and a hook of shop posting `events` to it. */
async function hooked(events: string[], failFirst = 0): Promise<{ receiver: Receiver; hook: WebhookResponse }> {
  const receiver = await startReceiver(failFirst);
  receivers.push(receiver);
  const made = await ada.post('/api/v1/projects/shop/webhooks', { url: receiver.url, events });
  expect(made.status, made.text).toBe(201);
  const hook = made.body as WebhookResponse;
  receiver.secret = hook.secret ?? '';
  return { receiver, hook };
}

async function deliveriesOf(hook: WebhookResponse): Promise<DeliveryResponse[]> {
  const answer = await ada.get(`/api/v1/projects/shop/webhook-deliveries?webhook=${hook.id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as DeliveryResponse[];
}

async function ask(name: string): Promise<string> {
  const result = await mustCall(olive, 'set_secret', { ...production, name, value: SECRET_VALUE });
  return (result.change_request as { id: string }).id;
}

describe('a receiver that fails the first tries', () => {
  it('gets each event signed, once it answers 200, linked to the console, Slack-compatible, and its tries are recorded', async () => {
    const { receiver, hook } = await hooked(['change_request.opened', 'change_request.approved'], 2);
    expect(hook.secret).toMatch(/^whsec_/);
    const id = await ask('HOOKED');
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);

    const tries = receiver.received;
    expect(tries.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(tries.every((r) => r.signed && r.event === 'change_request.opened')).toBe(true);
    expect(new Set(tries.map((r) => r.delivery)).size).toBe(1);
    const body = tries[2]?.body ?? {};
    const link = `${CONSOLE}/projects/shop/change-requests/${id}`;
    expect(body).toMatchObject({
      event: 'change_request.opened',
      project: 'shop',
      environment: 'production',
      url: link,
      change_request: { id, status: 'pending', tool: 'set_secret', requested_by: 'olive' },
    });
    expect(body.text).toBe(
      `olive's change request (set_secret on production of shop): production of shop requires 2 approvals, so set_secret waits for another operator who may change secrets there to approve it. ${link}`,
    );
    expect(JSON.stringify(tries)).not.toContain(SECRET_VALUE);

    const [recorded] = await deliveriesOf(hook);
    expect(recorded).toMatchObject({ event: 'change_request.opened', status: 'delivered', attempts: 3, last_status_code: 200, last_error: null });

    // Approved: told too; and the hook's secret is never shown again.
    expect((await ada.post(`/api/v1/change-requests/${id}/approve`)).status).toBe(200);
    await waitFor(() => receiver.deliveredCount().size === 2, 10_000);
    expect(receiver.received.at(-1)?.body).toMatchObject({ event: 'change_request.approved', change_request: { status: 'approved', decided_by: 'ada' } });
    const listed = (await ada.get('/api/v1/projects/shop/webhooks')).body as WebhookResponse[];
    expect(listed.find((h) => h.id === hook.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    // Audited by host: a URL's path may hold a token.
    const { entries } = await mustCall(ada, 'read_audit', { project: 'shop', tool: 'create_webhook' });
    expect(entries).toEqual([expect.objectContaining({ operator: 'ada', outcome: 'ok', input: { webhook: hook.id, host: new URL(receiver.url).host, events: hook.events } })]);
    expect(JSON.stringify(entries)).not.toContain('/hooks/aion');
  });

  it('hears only the events it follows, and a decline, its comment escaped in text', async () => {
    const { receiver } = await hooked(['change_request.declined']);
    const id = await ask('DECLINED');
    expect((await ada.post(`/api/v1/change-requests/${id}/decline`, { comment: 'not today <!channel>' })).status).toBe(200);
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);
    expect(receiver.received.map((r) => r.event)).toEqual(['change_request.declined']);
    const { body } = receiver.received[0] ?? {};
    expect(body).toMatchObject({ change_request: { id, status: 'declined', comment: 'not today <!channel>' } });
    // What people typed pings nobody in Slack.
    expect(body?.text).toContain('declined by ada ("not today &lt;!channel&gt;"); set_secret did not run.');
  });
});

describe('a request that goes stale or expires', () => {
  it('is told as change_request.stale and change_request.expired', async () => {
    const { receiver } = await hooked(['change_request.stale', 'change_request.expired']);
    const deploy = await mustCall(olive, 'deploy', { ...production, path: 'app.yaml' });
    const stale = (deploy.change_request as { id: string }).id;
    const current = await mustCall(vic, 'read_document', { project: 'shop', path: 'app.yaml' });
    await mustCall(ada, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: current.revision, text: String(current.text).replace('port: 8080', 'port: 8081') });
    expect((await ada.post(`/api/v1/change-requests/${stale}/approve`)).status).toBe(409);

    const expiring = await ask('EXPIRING');
    await server.services.db.execute(sql`update change_requests set expires_at = now() - interval '1 second' where id = ${expiring}`);
    expect((await ada.get('/api/v1/change-requests?project=shop')).status).toBe(200);

    await waitFor(() => receiver.deliveredCount().size === 2, 10_000);
    const told = Object.fromEntries(receiver.received.map((r) => [r.event, r.body.change_request]));
    expect(told).toEqual({
      // Marked stale while pending (the notices), or found so by the approval: told once either way.
      'change_request.stale': expect.objectContaining({ id: stale, status: expect.stringMatching(/^(pending|stale)$/), tool: 'deploy' }),
      'change_request.expired': expect.objectContaining({ id: expiring, status: 'expired' }),
    });
  });
});

describe('what approvers need to hear before anyone clicks (issue 29)', () => {
  it('tells a request gone stale while it waits, at once, with what moved', async () => {
    const { receiver } = await hooked(['change_request.stale']);
    const deploy = await mustCall(olive, 'deploy', { ...production, path: 'app.yaml' });
    const id = (deploy.change_request as { id: string }).id;
    const current = await mustCall(vic, 'read_document', { project: 'shop', path: 'app.yaml' });
    await mustCall(ada, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: current.revision, text: `${String(current.text)}\n# again\n` });
    // Nobody approves or declines: the mark alone is told.
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);
    const body = receiver.received.at(-1)?.body ?? {};
    expect(body).toMatchObject({
      event: 'change_request.stale',
      change_request: { id, status: 'pending', stale_reason: expect.stringMatching(/^app.yaml has a newer revision/) },
    });
    expect(body.text).toContain('stale, so deploy will not run: app.yaml has a newer revision');
  });

  it('tells each approval of a request that needs more (1 of N), naming who approved', async () => {
    await mustCall(ada, 'create_environment', { project: 'shop', name: 'triple', protected: true });
    await mustCall(ada, 'set_environment_protection', { project: 'shop', environment: 'triple', approvals_required: 3 });
    const { receiver } = await hooked(['change_request.partially_approved']);
    const asked = await mustCall(olive, 'set_secret', { project: 'shop', environment: 'triple', name: 'PARTLY', value: SECRET_VALUE });
    const id = (asked.change_request as { id: string }).id;
    expect((await ada.post(`/api/v1/change-requests/${id}/approve`, { comment: 'one of two' })).status).toBe(200);
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);
    const body = receiver.received.at(-1)?.body ?? {};
    expect(body).toMatchObject({
      event: 'change_request.partially_approved',
      environment: 'triple',
      change_request: { id, status: 'pending', approvals_required: 3, approved_by: ['ada'] },
    });
    expect(body.text).toContain('triple of shop requires 3 approvals, so set_secret waits for another operator who may change secrets there to approve it (approved so far by ada)');
    expect(JSON.stringify(receiver.received)).not.toContain(SECRET_VALUE);
  });
});

describe('a receiver that stays down', () => {
  it('is tried AION_WEBHOOK_ATTEMPTS times with growing waits; the delivery ends failed with why', async () => {
    const { receiver, hook } = await hooked(['change_request.opened']);
    await receiver.close();
    await ask('DOWN');
    await waitFor(async () => (await deliveriesOf(hook))[0]?.status === 'failed', 15_000);
    const [failed] = await deliveriesOf(hook);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, last_status_code: null, next_attempt_at: null, delivered_at: null });
    expect(failed?.last_error).toMatch(/^could not deliver: ECONNREFUSED/);
    expect(server.logs.join('\n')).not.toContain(receiver.url);

    // Redelivered by hand, once it is back: the same delivery, sent again.
    const back = await startReceiver();
    receivers.push(back);
    back.secret = receiver.secret;
    const port = new URL(back.url).port;
    const moved = await request(server.url, 'PATCH', `/api/v1/projects/shop/webhooks/${hook.id}`, { token: server.demoTokens.ada ?? '', body: { url: back.url } });
    expect(moved.status, moved.text).toBe(200);
    expect(port).not.toBe('');
    const again = await ada.post(`/api/v1/projects/shop/webhook-deliveries/${failed?.id ?? ''}/redeliver`);
    expect(again.status, again.text).toBe(200);
    await waitFor(() => back.deliveredCount().get(failed?.id ?? '') === 1, 10_000);
    await waitFor(async () => (await deliveriesOf(hook))[0]?.status === 'delivered', 10_000);
  });
});

describe('a proposal waiting', () => {
  it('is told to hooks that follow proposal.waiting, linking to its environment', async () => {
    const { receiver } = await hooked(['proposal.waiting']);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool set_secret {"name": "PROPOSED", "value": "v"}' });
    expect(answer.status, answer.text).toBe(200);
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);
    expect(receiver.received[0]?.body).toMatchObject({
      event: 'proposal.waiting',
      project: 'shop',
      environment: 'staging',
      url: `${CONSOLE}/projects/shop/environments/staging`,
      proposal: { tool: 'set_secret', thread: thread.id, operator: 'ada' },
    });
  });
});

describe('bad input', () => {
  const add = (who: Client, body: object) => who.post('/api/v1/projects/shop/webhooks', body);

  it('a url that is not http(s), or carries credentials: 422 with a sentence', async () => {
    expect(await add(ada, { url: 'ftp://hooks.example.com/x', events: ['change_request.opened'] })).toMatchObject({
      status: 422,
      body: { error: "a webhook's url must be an http or https address, like https://hooks.example.com/aion; got ftp://hooks.example.com/x" },
    });
    expect(await add(ada, { url: 'https://me:pw@hooks.example.com/x', events: ['change_request.opened'] })).toMatchObject({
      status: 422,
      body: { error: "a webhook's url may not carry a user name or password; put a token in its path or query instead" },
    });
  });

  it('an unknown event, or none: 422', async () => {
    const unknown = await add(ada, { url: 'https://hooks.example.com/x', events: ['change_request.opened', 'deploy.done'] });
    expect(unknown.status).toBe(422);
    expect((unknown.body as { error: string }).error).toMatch(/events/);
    expect((await add(ada, { url: 'https://hooks.example.com/x', events: [] })).status).toBe(422);
  });

  it('someone not an admin of the project: 403 with why; an unknown hook or delivery: 404', async () => {
    expect(await add(olive, { url: 'https://hooks.example.com/x', events: ['change_request.opened'] })).toMatchObject({
      status: 403,
      body: { error: 'to manage webhooks you need environment:manage on shop; your role there is operator' },
    });
    expect(await vic.get('/api/v1/projects/shop/webhook-deliveries')).toMatchObject({
      status: 403,
      body: { error: 'to manage webhooks you need environment:manage on shop; your role there is viewer' },
    });
    // An agent's session credential, though its operator is an admin: not a token these routes take.
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const credential = (await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string };
    expect(await add(client(server.url, credential.token), { url: 'https://hooks.example.com/x', events: ['change_request.opened'] })).toMatchObject({
      status: 401,
      body: { error: 'bad token' },
    });
    expect(await ada.delete('/api/v1/projects/shop/webhooks/nope')).toMatchObject({ status: 404, body: { error: 'no such webhook in shop: nope' } });
    expect(await ada.post('/api/v1/projects/shop/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver')).toMatchObject({
      status: 404,
      body: { error: 'no such delivery in shop: 00000000-0000-4000-8000-000000000000' },
    });
  });
});
