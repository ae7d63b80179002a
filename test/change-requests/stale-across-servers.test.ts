// Stale before anyone clicks, on every server (issue 29, DESIGN.md §14): two
// `ops serve` processes on one PostgreSQL. A pending change request and a
// waiting proposal opened through one server read `stale: true`, with the
// reason, in the other's API within about two seconds of their document being
// saved or deployed through that other server — both ways round; approving a
// request made stale elsewhere answers 409 with the sentence. With the server
// they were opened through SIGKILLed, the one left still marks new ones stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestResponse } from '../../src/wire/change-request.js';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';

/** What "at once" is held to: the notice between the servers, the request read again and marked. */
const AT_ONCE_MS = 2_000;

const staging = { project: 'moves', environment: 'staging' };
const production = { project: 'moves', environment: 'production' };

describe.skipIf(!POSTGRES_URL)('stale across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  /** The admin on server A and on server B. */
  let a: Client;
  let b: Client;
  /** Another operator of the project, who approves, on A and on B. */
  let checker: [Client, Client];
  const revisions: Record<string, number> = {};
  const took: string[] = [];

  beforeAll(async () => {
    cluster = await startCluster(2, [], { AION_MODEL: 'fake' });
    [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken)) as [Client, Client];
    expect((await a.post('/api/v1/projects', { slug: 'moves' })).status).toBe(201);
    await mustCall(a, 'set_environment_protection', { ...production, approvals_required: 2 });
    const token = ((await a.post('/api/v1/operators', { name: 'checker' })).body as { token: { token: string } }).token.token;
    expect((await a.post('/api/v1/projects/moves/members', { operator: 'checker', role: 'operator' })).status).toBe(201);
    checker = cluster.servers.map((s) => client(s.url, token)) as [Client, Client];
    for (const one of checker) await waitFor(async () => (await one.get('/api/v1/projects/moves')).status === 200);
    for (const path of ['app.yaml', 'db.yaml']) revisions[path] = (await mustCall(a, 'write_document', { project: 'moves', path, text: `${path}: 1\n` })).revision as number;
  });
  afterAll(async () => {
    console.error(`stale on the other server after: ${took.join('; ')}`);
    await cluster?.stop();
  });

  /** An unpinned deploy to production asked through `on`: a change request waiting for a second operator. */
  async function requestDeploy(on: Client, path: string): Promise<string> {
    const asked = await mustCall(on, 'deploy', { ...production, path });
    return (asked.change_request as { id: string }).id;
  }

  /** A thread in staging opened through `on`, in which the fake model proposes `line`; the proposal's thread and id. */
  async function propose(on: Client, line: string): Promise<{ thread: string; id: string }> {
    const opened = (await on.post('/api/v1/assistant/threads', staging)).body as ThreadResponse;
    const answer = await on.post(`/api/v1/assistant/threads/${opened.id}/messages`, { text: line });
    expect(answer.status, answer.text).toBe(200);
    const [proposal] = (answer.body as ThreadResponse).proposals;
    expect(proposal).toMatchObject({ status: 'pending', stale: false });
    return { thread: opened.id, id: proposal?.id ?? '' };
  }

  /** Saves `path` again through `on`: its newest revision moves. */
  async function save(on: Client, path: string): Promise<number> {
    const base = revisions[path] ?? 0;
    revisions[path] = (await mustCall(on, 'write_document', { project: 'moves', path, base_revision: base, text: `${path}: ${base + 1}\n` })).revision as number;
    return revisions[path];
  }

  const requestOn = async (on: Client, id: string) => (await on.get(`/api/v1/change-requests/${id}`)).body as ChangeRequestResponse;
  const proposalOn = async (on: Client, { thread, id }: { thread: string; id: string }) =>
    ((await on.get(`/api/v1/assistant/threads/${thread}`)).body as ThreadResponse).proposals.find((p) => p.id === id);

  /** Polls `read` from `since` until it holds; how long that took, which must be "at once". */
  async function staleWithin(what: string, since: number, read: () => Promise<boolean>): Promise<number> {
    while (!(await read())) {
      if (Date.now() - since > 10_000) throw new Error(`${what}: not stale after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = Date.now() - since;
    took.push(`${what} ${ms} ms`);
    expect(ms, what).toBeLessThan(AT_ONCE_MS);
    return ms;
  }

  const newerRevision = (path: string, from: number, saved: number) =>
    `${path} has a newer revision, r${saved}, than the r${from} it would deploy; ask again to deploy the newest`;

  it('marks on B what was opened through A, the moment its document is saved through B; approving it on A is a 409 that says why', async () => {
    const from = revisions['app.yaml'] ?? 0;
    const request = await requestDeploy(a, 'app.yaml');
    const proposal = await propose(a, `/tool write_document ${JSON.stringify({ path: 'app.yaml', base_revision: from, text: 'edited: 1\n' })}`);
    expect(await requestOn(b, request)).toMatchObject({ status: 'pending', stale: false, stale_reason: null });

    const saving = Date.now();
    const saved = await save(b, 'app.yaml');
    await staleWithin('a request opened on A, saved on B', saving, async () => (await requestOn(b, request)).stale);
    await staleWithin('a proposal made on A, saved on B', saving, async () => (await proposalOn(b, proposal))?.stale === true);
    const reason = newerRevision('app.yaml', from, saved);
    expect(await requestOn(b, request)).toMatchObject({ status: 'pending', stale: true, stale_reason: reason, can_approve: false });
    expect(await proposalOn(b, proposal)).toMatchObject({
      status: 'pending',
      stale: true,
      stale_reason: `app.yaml was saved again since this was proposed: r${saved} is its newest, not the r${from} this edits, so accepting it would be refused; ask for the edit again`,
    });

    const approved = await checker[0].post(`/api/v1/change-requests/${request}/approve`, {});
    expect(approved.status).toBe(409);
    expect((approved.body as { error: string }).error).toBe(`this change request is stale, so it will not run: ${reason}`);
    expect(await requestOn(b, request)).toMatchObject({ status: 'stale', stale: true });
  });

  it('marks on A what was opened through B, the moment its document is saved or deployed through A; approving it on B is a 409 that says why', async () => {
    const from = revisions['db.yaml'] ?? 0;
    const request = await requestDeploy(b, 'db.yaml');
    const proposal = await propose(b, '/tool deploy {"path": "db.yaml"}');
    expect(await proposalOn(b, proposal)).toMatchObject({ stale: false, newer_revision: null });

    const saving = Date.now();
    const saved = await save(a, 'db.yaml');
    await staleWithin('a request opened on B, saved on A', saving, async () => (await requestOn(a, request)).stale);
    const reason = newerRevision('db.yaml', from, saved);
    expect(await requestOn(a, request)).toMatchObject({ status: 'pending', stale: true, stale_reason: reason });
    // A pinned deploy still runs as shown after a save (it offers the newest beside it) — until what is live moves.
    expect(await proposalOn(a, proposal)).toMatchObject({ stale: false, newer_revision: saved });
    const deploying = Date.now();
    await mustCall(a, 'deploy', { ...staging, path: 'db.yaml', revision: saved });
    await staleWithin('a proposal made on B, deployed on A', deploying, async () => (await proposalOn(a, proposal))?.stale === true);
    expect((await proposalOn(a, proposal))?.stale_reason).toMatch(
      /^db\.yaml in staging changed since this was proposed: \S+ ran deploy at \d\d:\d\d:\d\d UTC, so what this shows is not what would run; ask again$/,
    );

    const approved = await checker[1].post(`/api/v1/change-requests/${request}/approve`, {});
    expect(approved.status).toBe(409);
    expect((approved.body as { error: string }).error).toBe(`this change request is stale, so it will not run: ${reason}`);
  });

  it('still marks new ones stale with A killed: opened through A before it died, saved through B after', async () => {
    const from = revisions['app.yaml'] ?? 0;
    const request = await requestDeploy(a, 'app.yaml');
    const proposal = await propose(a, `/tool write_document ${JSON.stringify({ path: 'app.yaml', base_revision: from, text: 'edited: 2\n' })}`);
    const victim = cluster.servers[0]?.child;
    victim?.kill('SIGKILL');
    await expect.poll(() => victim?.signalCode).toBe('SIGKILL');

    const saving = Date.now();
    const saved = await save(b, 'app.yaml');
    await staleWithin('a request on B with A killed', saving, async () => (await requestOn(b, request)).stale);
    await staleWithin('a proposal on B with A killed', saving, async () => (await proposalOn(b, proposal))?.stale === true);
    const reason = newerRevision('app.yaml', from, saved);
    expect(await requestOn(b, request)).toMatchObject({ status: 'pending', stale: true, stale_reason: reason });
    const approved = await checker[1].post(`/api/v1/change-requests/${request}/approve`, {});
    expect(approved.status).toBe(409);
    expect((approved.body as { error: string }).error).toBe(`this change request is stale, so it will not run: ${reason}`);
  });
});
