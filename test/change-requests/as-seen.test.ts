// Issue 29: what a person decides is what runs (DESIGN.md §14, invariant 19).
// Accept, Accept all and an approval name what they decide on, and what
// changed since is refused with a sentence; an agent proposes only inside a
// running turn; a deploy or rollback proposal is pinned to the revision it
// showed; a proposal waiting for approvals never freezes its conversation,
// and Accept all stops at it.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import type { ThreadResponse } from '../../src/wire/thread.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { answerOf, httpClient } from '../mcp/clients.js';

const shop = { project: 'shop' };
const staging = { project: 'shop', environment: 'staging' };
const production = { project: 'shop', environment: 'production' };

let server: TestServer;
let ada: Client, olive: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive } = demoClients(server));
  await mustCall(ada, 'set_environment_protection', { ...production, approvals_required: 2 });
});
afterAll(() => server.stop());

async function open(where: { project: string; environment: string } = staging): Promise<ThreadResponse> {
  return (await ada.post('/api/v1/assistant/threads', where)).body as ThreadResponse;
}

/** The operator's message, and the thread as its answer left it. */
async function say(thread: ThreadResponse, text: string): Promise<ThreadResponse> {
  const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ThreadResponse;
}

const acceptAll = (thread: ThreadResponse, body?: object) => ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`, body);
const accept = (thread: ThreadResponse, id: string, body?: object) => ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${id}/accept`, body);
const view = async (thread: ThreadResponse) => (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as ThreadResponse;
const secretsOf = async (where: Record<string, unknown>) => ((await mustCall(ada, 'list_secrets', where)).secrets as { name: string }[]).map((s) => s.name);
const liveRevision = async (where: Record<string, unknown>) => ((await mustCall(ada, 'list_deployments', where)).deployments as { revision: number }[])[0]?.revision;

/** Writes a new revision of app.yaml (a comment appended); answers its number. */
async function newRevision(): Promise<number> {
  const current = await mustCall(ada, 'read_document', { ...shop, path: 'app.yaml' });
  const written = await mustCall(ada, 'write_document', { ...shop, path: 'app.yaml', base_revision: current.revision, text: `${String(current.text)}# ${Date.now()}\n` });
  return Number(written.revision);
}

describe('Accept all names what the operator saw (finding 1)', () => {
  it('refuses, accepting nothing, when a proposal seen no longer waits or one waits unseen', async () => {
    const thread = await say(await open(), '/tool set_secret {"name": "SEEN_A", "value": "a"}\n/tool set_secret {"name": "SEEN_B", "value": "b"}');
    const [first, second] = thread.proposals.map((p) => p.id);
    expect(await acceptAll(thread, { proposals: [first] })).toMatchObject({
      status: 409,
      body: { error: 'nothing was accepted: the newest answer holds a proposal you did not see ("set secret SEEN_B in staging"); read the thread again' },
    });
    expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${second}/reject`)).status).toBe(200);
    expect(await acceptAll(thread, { proposals: [first, second] })).toMatchObject({
      status: 409,
      body: { error: 'nothing was accepted: not every proposal you saw still waits: "set secret SEEN_B in staging" is rejected (rejected by ada); read the thread again' },
    });
    expect(await secretsOf(staging)).not.toContain('SEEN_A');
    const accepted = await acceptAll(thread, { proposals: [first] });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await secretsOf(staging)).toContain('SEEN_A');
  });

  it('refuses an agent’s write between turns, so the bodiless call accepts exactly what the ended turn showed', async () => {
    const thread = await say(await open(), '/tool set_secret {"name": "TURN_A", "value": "a"}');
    const credential = ((await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string }).token;
    const agent: McpClient = await httpClient(server.url, credential);
    try {
      const answer = answerOf(await agent.callTool({ name: 'set_secret', arguments: { name: 'LATE', value: 'x' } }));
      expect(answer).toEqual({
        isError: true,
        result: { error: 'set_secret was not proposed: a change is proposed only inside a running turn of this conversation, and none runs now; the operator starts one by sending a message' },
      });
    } finally {
      await agent.close();
    }
    expect((await view(thread)).proposals.map((p) => p.title)).toEqual(['set secret TURN_A in staging']);
    expect((await acceptAll(thread)).status).toBe(200);
    const names = await secretsOf(staging);
    expect(names).toContain('TURN_A');
    expect(names).not.toContain('LATE');
  });

  it('bad bodies get a 422 and a sentence', async () => {
    const thread = await open();
    expect(await acceptAll(thread, { proposals: 'all' })).toMatchObject({ status: 422, body: { error: 'body.proposals must be array' } });
    expect(await acceptAll(thread, { ids: [] })).toMatchObject({ status: 422, body: { error: 'body has an unknown property ids; remove it' } });
  });
});

describe('Accept names the proposal as seen', () => {
  it('by its fingerprint: another is refused with a sentence, the one shown runs', async () => {
    const thread = await say(await open(), '/tool set_secret {"name": "PRINTED", "value": "p"}');
    const proposal = thread.proposals[0];
    expect(proposal?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const refused = await accept(thread, proposal?.id ?? '', { fingerprint: 'f'.repeat(64) });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: `this proposal is not the one you saw: "set secret PRINTED in staging" has fingerprint ${proposal?.fingerprint.slice(0, 12)}, not the ffffffffffff you accepted; read the thread again` },
    });
    expect(await secretsOf(staging)).not.toContain('PRINTED');
    expect((await accept(thread, proposal?.id ?? '', { fingerprint: proposal?.fingerprint })).status).toBe(200);
    expect(await secretsOf(staging)).toContain('PRINTED');
  });
});

describe('A deploy or rollback proposal is pinned to the revision it showed (finding 2)', () => {
  it('deploys the revision shown, not one written after it', async () => {
    const shown = await newRevision();
    const thread = await say(await open(), '/tool deploy {"path": "app.yaml"}');
    expect(thread.proposals[0]?.rows).toContainEqual({ k: 'revision', v: `r${shown}` });
    const newer = await newRevision();
    expect((await accept(thread, thread.proposals[0]?.id ?? '')).status).toBe(200);
    expect(await liveRevision(staging)).toBe(shown);
    expect(newer).toBe(shown + 1);
  });

  it('refuses a rollback whose target moved since: stale, with who moved it', async () => {
    const older = await newRevision();
    await mustCall(ada, 'deploy', { ...staging, path: 'app.yaml', revision: older });
    const newer = await newRevision();
    await mustCall(ada, 'deploy', { ...staging, path: 'app.yaml', revision: newer });
    const thread = await say(await open(), '/tool rollback {"path": "app.yaml"}');
    expect(thread.proposals[0]?.rows).toContainEqual({ k: 'revision', v: `r${older}, the one live before the current` });
    // Someone rolls back meanwhile: the one before the current is now another.
    await mustCall(ada, 'rollback', { ...staging, path: 'app.yaml' });
    // Stale before anyone clicks (proposal-staleness.ts): Accept is refused with who moved it, and it stays waiting.
    const refused = await accept(thread, thread.proposals[0]?.id ?? '');
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toMatch(
      /^this proposal is stale, so it will not run: app.yaml in staging changed since this was proposed: ada ran rollback at \d\d:\d\d:\d\d UTC/,
    );
    expect((await view(thread)).proposals[0]).toMatchObject({ status: 'pending', stale: true });
    expect(await liveRevision(staging)).toBe(older);
  });
});

describe('A proposal waiting for approvals (findings 4 and 5)', () => {
  it('is requested, shown accepted, and leaves its conversation free', async () => {
    const thread = await say(await open(production), '/tool set_secret {"name": "FREE", "value": "v"}');
    const accepted = (await accept(thread, thread.proposals[0]?.id ?? '')).body as ThreadResponse;
    expect(accepted.proposals[0]).toMatchObject({ status: 'accepted', requested: true, change_request: { status: 'pending' } });
    expect(accepted.state).toBe('idle');
    const next = await say(thread, 'what now?');
    expect(next.messages.at(-1)?.text).toBe('fake: what now?');
    // Approved, it ends accepted with its result.
    const request = accepted.proposals[0]?.change_request?.id ?? '';
    expect((await olive.post(`/api/v1/change-requests/${request}/approve`, {})).status).toBe(200);
    expect((await view(thread)).proposals[0]).toMatchObject({ status: 'accepted', requested: false, change_request: { status: 'approved' } });
  });

  it('stops Accept all, leaving the rest waiting', async () => {
    const thread = await say(
      await open(production),
      '/tool set_secret {"name": "FIRST", "value": "v"}\n/tool set_secret {"project": "shop", "environment": "staging", "name": "AFTER_FIRST", "value": "v"}',
    );
    expect((await acceptAll(thread)).status).toBe(200);
    const after = await view(thread);
    expect(after.proposals.map((p) => [p.status, p.requested])).toEqual([
      ['accepted', true],
      ['pending', false],
    ]);
    expect(after.state).toBe('waiting');
    expect(await secretsOf(staging)).not.toContain('AFTER_FIRST');
  });
});

describe('An approval names the request as seen', () => {
  it('by its fingerprint: another is refused, the one read runs', async () => {
    const asked = await mustCall(olive, 'set_secret', { ...production, name: 'APPROVED_AS_READ', value: 'v' });
    const id = (asked.change_request as { id: string }).id;
    const read = (await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse;
    expect(read.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await ada.post(`/api/v1/change-requests/${id}/approve`, { fingerprint: '0'.repeat(64) })).toMatchObject({
      status: 409,
      body: { error: 'this change request is not the one you saw: what it would run or change differs from what you read; read it again' },
    });
    expect(await ada.post(`/api/v1/change-requests/${id}/approve`, { fingerprint: read.fingerprint })).toMatchObject({ status: 200, body: { status: 'approved' } });
  });
});

describe('Stale is visible before anyone clicks (finding 3)', () => {
  it('marks a request stale the moment its document moves, in the list, the card and its proposal; approving it is a 409 saying what moved', async () => {
    // A proposal of ada's deploy waits on its request; olive's deploy asked directly waits too.
    const thread = await say(await open(production), '/tool deploy {"path": "app.yaml"}');
    const accepted = (await accept(thread, thread.proposals[0]?.id ?? '')).body as ThreadResponse;
    const fromThread = accepted.proposals[0]?.change_request?.id ?? '';
    const asked = await mustCall(olive, 'deploy', { ...production, path: 'app.yaml' });
    const id = (asked.change_request as { id: string }).id;
    const before = (await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse;
    expect(before).toMatchObject({ stale: false, stale_reason: null, can_approve: true });
    const revision = (before.change as { revision: number }).revision;

    // A save of the document (made for staging) moves what the request would deploy.
    const saved = await newRevision();
    const reason = `app.yaml has a newer revision, r${saved}, than the r${revision} it would deploy; ask again to deploy the newest`;
    await expect.poll(async () => ((await ada.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse).stale_reason, { timeout: 5000 }).toBe(reason);
    expect((await ada.get(`/api/v1/change-requests/${id}`)).body).toMatchObject({
      status: 'pending',
      stale: true,
      can_approve: false,
      refusal: `this change request is stale, so it will not run: ${reason}`,
      sentence: `stale, so deploy will not run: ${reason}; decline it, or ask again`,
    });
    const forAda = (await ada.get('/api/v1/change-requests?for=me')).body as ChangeRequestResponse[];
    expect(forAda.find((r) => r.id === id)).toMatchObject({ stale: true, stale_reason: reason });
    const refused = await ada.post(`/api/v1/change-requests/${id}/approve`, { fingerprint: before.fingerprint });
    expect(refused).toMatchObject({ status: 409, body: { error: `this change request is stale, so it will not run: ${reason}` } });

    // The thread's deploy is pinned to its revision, so a newer one leaves it as it was; another deploy going live does not.
    expect((await view(thread)).proposals[0]).toMatchObject({ requested: true, stale: false });
    const other = await mustCall(olive, 'deploy', { ...production, path: 'app.yaml', revision: saved });
    expect((await ada.post(`/api/v1/change-requests/${(other.change_request as { id: string }).id}/approve`, {})).status).toBe(200);
    await expect.poll(async () => (await view(thread)).proposals[0]?.stale, { timeout: 5000 }).toBe(true);
    expect((await view(thread)).proposals[0]).toMatchObject({ requested: true, stale_reason: expect.stringMatching(/^app.yaml changed in production since it was asked/) });
    expect(((await olive.get(`/api/v1/change-requests/${fromThread}`)).body as ChangeRequestResponse).stale).toBe(true);
  });
});

describe('invariant 19: every decision names what it decides on', () => {
  /** Each way a person decides, with what they saw made out of date: refused with a sentence, and nothing runs. */
  const decisions: { name: string; decide: () => Promise<{ status: number; body: unknown }>; sentence: RegExp; ran: () => Promise<boolean> }[] = [];

  beforeAll(async () => {
    const one = await say(await open(), '/tool set_secret {"name": "INV_ACCEPT", "value": "v"}');
    decisions.push({
      name: 'accept',
      decide: () => accept(one, one.proposals[0]?.id ?? '', { fingerprint: 'a'.repeat(64) }),
      sentence: /^this proposal is not the one you saw: /,
      ran: async () => (await secretsOf(staging)).includes('INV_ACCEPT'),
    });
    const all = await say(await open(), '/tool set_secret {"name": "INV_ALL", "value": "v"}\n/tool set_secret {"name": "INV_ALL_TOO", "value": "v"}');
    decisions.push({
      name: 'accept-all',
      decide: () => acceptAll(all, { proposals: [all.proposals[0]?.id] }),
      sentence: /^nothing was accepted: the newest answer holds a proposal you did not see /,
      ran: async () => (await secretsOf(staging)).includes('INV_ALL'),
    });
    const asked = await mustCall(olive, 'set_secret', { ...production, name: 'INV_APPROVE', value: 'v' });
    const id = (asked.change_request as { id: string }).id;
    decisions.push({
      name: 'approve',
      decide: () => ada.post(`/api/v1/change-requests/${id}/approve`, { fingerprint: 'b'.repeat(64) }),
      sentence: /^this change request is not the one you saw: /,
      ran: async () => (await secretsOf(production)).includes('INV_APPROVE'),
    });
  });

  it('refuses each with a 409 and a sentence, and runs nothing', async () => {
    expect(decisions.map((d) => d.name)).toEqual(['accept', 'accept-all', 'approve']);
    for (const decision of decisions) {
      const answer = await decision.decide();
      expect(answer.status, decision.name).toBe(409);
      expect((answer.body as { error: string }).error, decision.name).toMatch(decision.sentence);
      expect(await decision.ran(), decision.name).toBe(false);
    }
  });
});
