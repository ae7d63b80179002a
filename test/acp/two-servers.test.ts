// Two `ops serve` processes on one PostgreSQL, one thread held by an agent:
// never two turns at once, and each answer knows the turns run on the other
// server (the agent moves with the thread's agent lease: agent-lease.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { followTurn } from '../helpers/sse.js';
import { POSTGRES_URL } from '../helpers/store.js';

describe.skipIf(!POSTGRES_URL)('an agent thread across two servers on one PostgreSQL', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(2, ['--agent', `demo=${process.execPath} ${OPS_BIN} demo-agent`]);
  });
  afterAll(() => cluster.stop());

  it('runs one turn at a time, on either server', async () => {
    const [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken));
    if (!a || !b) throw new Error('two servers expected');
    const thread = (await a.post('/api/v1/assistant/threads', { agent: 'demo' })).body as { id: string };
    const messages = `/api/v1/assistant/threads/${thread.id}/messages`;
    const events = followTurn(cluster.servers[0]?.url ?? '', cluster.adminToken, thread.id);
    await events.open;
    const slow = a.post(messages, { text: '/slow 1500\n/say from a' });
    await events.until((e) => e.type === 'started');
    events.close();
    // The slow turn holds the thread: a message on the other server meanwhile is refused.
    const refused = await b.post(messages, { text: '/say from b' });
    expect(refused.status).toBe(409);
    expect((await slow).status).toBe(200);
    const onB = await b.post(messages, { text: '/say b again' });
    expect(onB.status, onB.text).toBe(200);
    const onA = await a.post(messages, { text: '/say a again' });
    expect(onA.status, onA.text).toBe(200);
    const texts = (onA.body as { messages: { role: string; text: string }[] }).messages.filter((m) => m.role === 'assistant').map((m) => m.text);
    expect(texts.at(-2)).toMatch(/b again$/);
    expect(texts.at(-1)).toBe('a again');
  });
});
