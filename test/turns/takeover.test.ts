// Taking over a turn whose server stalled (issue 30, finding 2): the takeover is
// a transaction of its own that nothing undoes. The first message after the
// lease takes the thread at once; when the dead turn had made a proposal, the
// message is refused because that proposal waits — and the thread shows it,
// taken over once, not again on every try; its proposal is told to the
// project's webhooks as waiting (issue 29).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Answer, type Client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { childGroups, killGroups, spawnServer, type ServerProcess } from '../helpers/process.js';
import { followTurn } from '../helpers/sse.js';
import { freshDataDir, POSTGRES_URL, TEST_SECRET_KEY } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';
import type { WebhookResponse } from '../../src/wire/webhook.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/** The tests' loopback receiver is a private address. */
const HOOKS = { AION_WEBHOOK_ALLOW_PRIVATE: '1', AION_WEBHOOK_BACKOFF: '100ms' };
/** The dying server's lease: short, so the test is. */
const VICTIM_LEASE_MS = 1_000;
const STILL_ANSWERING = 'the assistant is still answering this thread; wait for its answer';
const PROPOSAL_WAITS = 'a proposal is still waiting for a decision; accept or reject it first';
const INTERRUPTED_LOG = 'was interrupted (its server stopped renewing its lease)';
const AGENT = ['--agent', `demo=${process.execPath} ${OPS_BIN} demo-agent`];

describe.skipIf(!POSTGRES_URL)('a thread whose turn’s server stalled, on another server', () => {
  let cluster: Cluster;
  let survivor: ServerProcess;
  let b: Client;
  const stalled: ServerProcess[] = [];
  let receiver: Receiver | null = null;

  beforeAll(async () => {
    // The survivor's own lease is long, so its sweep comes every 2 s: the message, not the sweep, takes the thread over.
    cluster = await startCluster(1, AGENT, { AION_MODEL: 'fake', AION_TURN_LEASE: '1h', ...HOOKS });
    survivor = cluster.servers[0] as ServerProcess;
    b = client(survivor.url, cluster.adminToken);
    expect((await b.post('/api/v1/projects', { slug: 'takeover' })).status).toBe(201);
  });
  afterAll(async () => {
    // Woken, each finds its turn taken and stops it.
    // Killed, with the agents a SIGKILL leaves behind.
    for (const victim of stalled) {
      const agents = childGroups(victim.child.pid ?? 0);
      victim.child.kill('SIGKILL');
      killGroups(agents);
    }
    await cluster?.stop();
    await receiver?.close();
  });

  /** A thread (of `agent`, or the built-in assistant) whose turn runs on a server that then stalls (SIGSTOP) once `ready` holds. */
  async function orphanedThread(text: string, ready: (id: string) => Promise<void>, agent?: string): Promise<{ id: string; stalledAt: number }> {
    const victim = await spawnServer([...AGENT, '--data', await freshDataDir()], {
      DATABASE_URL: cluster.databaseUrl,
      AION_ADMIN_TOKEN: cluster.adminToken,
      AION_SECRET_KEY: TEST_SECRET_KEY,
      AION_MODEL: 'fake',
      AION_TURN_LEASE: `${VICTIM_LEASE_MS}ms`,
      ...HOOKS,
    });
    stalled.push(victim);
    const onVictim = client(victim.url, cluster.adminToken);
    const opened = await onVictim.post('/api/v1/assistant/threads', { project: 'takeover', environment: 'staging', ...(agent ? { agent } : {}) });
    const id = (opened.body as ThreadResponse).id;
    void onVictim.post(`/api/v1/assistant/threads/${id}/messages`, { text }).catch(() => undefined);
    await ready(id);
    victim.child.kill('SIGSTOP');
    return { id, stalledAt: Date.now() };
  }

  /** Sends until the answer is no longer "still answering" (the lease ran out); answers the first other answer. */
  async function sendUntilTaken(id: string, stalledAt: number): Promise<Answer> {
    for (;;) {
      const answer = await b.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say on b' });
      if (!(answer.status === 409 && (answer.body as { error: string }).error === STILL_ANSWERING)) return answer;
      expect(Date.now() - stalledAt).toBeLessThan(VICTIM_LEASE_MS + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const interruptions = () => survivor.stderr.filter((line) => line.includes(INTERRUPTED_LOG)).length;

  it('takes the next message at once when the dead turn proposed nothing', async () => {
    const before = interruptions();
    const { id, stalledAt } = await orphanedThread('/slow 60000\n/say never', async (thread) => {
      await waitFor(async () => ((await b.get(`/api/v1/assistant/threads/${thread}`)).body as ThreadResponse).turn !== null);
    });
    const answer = await sendUntilTaken(id, stalledAt);
    expect(answer.status, answer.text).toBe(200);
    expect(Date.now() - stalledAt).toBeLessThan(VICTIM_LEASE_MS + 2_000);
    expect((answer.body as ThreadResponse).messages.map((m) => m.stop_reason ?? m.role)).toEqual(['user', 'interrupted', 'user', 'end_turn']);
    expect(interruptions() - before).toBe(1);
  });

  it('refuses while the dead turn’s proposal waits, showing it, taken over once however often it is asked; its proposal is told as waiting', async () => {
    const before = interruptions();
    receiver = await startReceiver(0);
    const hooked = await b.post('/api/v1/projects/takeover/webhooks', { url: receiver.url, events: ['proposal.waiting'] });
    expect(hooked.status, hooked.text).toBe(201);
    receiver.secret = (hooked.body as WebhookResponse).secret ?? '';
    // An agent's turn: it proposes, then goes on working when its server stalls.
    const { id, stalledAt } = await orphanedThread(
      '/say said before\n/tool set_secret {"name": "KEPT", "value": "v"}\n/slow 60000',
      async (thread) => {
        const followed = followTurn(survivor.url, cluster.adminToken, thread);
        try {
          await followed.until((e) => e.type === 'proposal', 20_000);
        } finally {
          followed.close();
        }
      },
      'demo',
    );
    const refused = await sendUntilTaken(id, stalledAt);
    expect(refused.status, refused.text).toBe(409);
    expect((refused.body as { error: string }).error).toBe(PROPOSAL_WAITS);
    // What the refusal names is there to see: the takeover was not undone with it.
    const thread = (await b.get(`/api/v1/assistant/threads/${id}`)).body as ThreadResponse;
    expect(thread.state).toBe('waiting');
    expect(thread.proposals).toEqual([expect.objectContaining({ status: 'pending', tool: 'set_secret' })]);
    expect(thread.messages.at(-1)).toMatchObject({ role: 'assistant', stop_reason: 'interrupted' });
    // Asking again and again takes nothing over again.
    for (let i = 0; i < 5; i++) expect((await b.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say again' })).status).toBe(409);
    expect(interruptions() - before).toBe(1);
    const told = receiver;
    await waitFor(() => told.deliveredCount().size === 1, 10_000);
    expect(told.received.at(-1)?.body).toMatchObject({ event: 'proposal.waiting', proposal: { id: thread.proposals[0]?.id, tool: 'set_secret', thread: id } });

    expect((await b.post(`/api/v1/assistant/threads/${id}/proposals/${thread.proposals[0]?.id}/accept`)).status).toBe(200);
    const next = await b.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say after' });
    expect(next.status, next.text).toBe(200);
  });
});
