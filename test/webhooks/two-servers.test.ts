// Two `ops serve` processes on one PostgreSQL, each with its own sender: every
// change request opened or decided on either is told exactly once — none
// lost, none sent twice — even as the receiver fails each delivery's first try.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryResponse, WebhookResponse } from '../../src/wire/webhook.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { mustCall } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './receiver.js';

const REQUESTS = 12;

describe.skipIf(!POSTGRES_URL)('webhooks across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(1);
    cluster = await startCluster(2, [], { AION_WEBHOOK_ALLOW_PRIVATE: '1', AION_WEBHOOK_BACKOFF: '50ms', AION_WEBHOOK_ATTEMPTS: '5' });
  });
  afterAll(async () => {
    await cluster.stop();
    await receiver.close();
  });

  it('deliver each event exactly once', async () => {
    const [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const production = { project: 'told', environment: 'production' };
    expect((await a.post('/api/v1/projects', { slug: 'told' })).status).toBe(201);
    await mustCall(a, 'set_environment_protection', { ...production, approvals_required: 2 });
    const made = await a.post('/api/v1/projects/told/webhooks', { url: receiver.url, events: ['change_request.opened', 'change_request.declined'] });
    expect(made.status, made.text).toBe(201);
    const hook = made.body as WebhookResponse;
    receiver.secret = hook.secret ?? '';

    const servers = [a, b];
    const ids = await Promise.all(
      Array.from({ length: REQUESTS }, async (_v, i) => {
        const asked = await mustCall(servers[i % 2] ?? a, 'set_secret', { ...production, name: `TOLD_${i}`, value: 'v' });
        return (asked.change_request as { id: string }).id;
      }),
    );
    // Withdrawn by the requester, on the other server: told as declined.
    await Promise.all(ids.map((id, i) => servers[(i + 1) % 2]?.post(`/api/v1/change-requests/${id}/decline`, { comment: 'done' })));

    await waitFor(() => receiver.deliveredCount().size === 2 * REQUESTS, 30_000);
    // A while longer: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const counts = receiver.deliveredCount();
    expect([...counts].filter(([, n]) => n !== 1), 'deliveries received more than once').toEqual([]);
    expect(receiver.received.every((r) => r.signed)).toBe(true);
    expect(receiver.received.filter((r) => r.answered === 500)).toHaveLength(2 * REQUESTS);
    const told = receiver.received.filter((r) => r.answered === 200).map((r) => `${r.event} ${(r.body.change_request as { id: string }).id}`);
    expect(told.sort()).toEqual(ids.flatMap((id) => [`change_request.opened ${id}`, `change_request.declined ${id}`]).sort());

    const recorded = (await b.get(`/api/v1/projects/told/webhook-deliveries?limit=200`)).body as DeliveryResponse[];
    expect(recorded).toHaveLength(2 * REQUESTS);
    expect(recorded.every((d) => d.status === 'delivered' && d.attempts === 2)).toBe(true);
  });
});
