// Durable turns (DESIGN.md §11, "across servers"): what storing a turn's
// events costs a turn, how soon an event of a turn on A reaches a follower on
// B, and how soon a killed server's thread is free again.
import { followTurn } from '../helpers/sse.js';
import { withBenchCluster } from './cluster.js';
import { median, ms, percentile, type Row } from './lib.js';

const TURNS_FOLLOWED = 40;
/** Some text, a read and a proposal: five or six events, spread over two model calls. */
const FOLLOWED_TURN = '/say looking\n/tool list_environments\n/tool set_secret {"name": "BENCH_FOLLOWED", "value": "v"}';

async function post(base: string, token: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return { status: response.status, body: await response.json() };
}

/** From the server's own metrics: the mean time a turn spent writing its events, over every turn it ran. */
export async function eventWriteRows(base: string): Promise<Row[]> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const mean = (value('aion_turn_event_writes_seconds_sum') / value('aion_turn_event_writes_seconds_count')) * 1000;
  return [{ measure: "storing a turn's events, mean per turn (the fake turns above)", figure: ms(mean), target: '≤ 2 ms p50 added to a turn', met: mean <= 2 }];
}

export async function turnsAcrossServersRows(adminUrl: string): Promise<Row[]> {
  return withBenchCluster(adminUrl, 2, { AION_MODEL: 'fake', AION_ASSISTANT_RATE: '100000/1m' }, async (cluster) => {
    const [a, b] = cluster.servers;
    if (!a || !b) throw new Error('two servers expected');
    const token = cluster.adaToken;
    const open = async (base: string) => ((await post(base, token, '/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;

    process.stdout.write(`turns: ${TURNS_FOLLOWED} turns on A followed on A and on B…\n`);
    const delays: number[] = [];
    for (let i = 0; i < TURNS_FOLLOWED; i++) {
      const id = await open(a.url);
      const onA = followTurn(a.url, token, id);
      const onB = followTurn(b.url, token, id);
      await Promise.all([onA.open, onB.open]);
      await post(a.url, token, `/api/v1/assistant/threads/${id}/messages`, { text: FOLLOWED_TURN });
      const [seenA, seenB] = await Promise.all([onA.done, onB.done]);
      // A's own follower hears each event as A sends it; B's, once it crossed the store.
      const atB = new Map(seenB.map((e) => [e.id, e.at]));
      for (const event of seenA) {
        const arrived = atB.get(event.id);
        if (arrived !== undefined) delays.push(Math.max(0, arrived - event.at));
      }
    }
    delays.sort((x, y) => x - y);

    process.stdout.write('turns: a server killed mid-turn, its thread taken on another (waits out the 15 s lease)…\n');
    const frees: number[] = [];
    for (let round = 0; round < 2; round++) {
      const victim = await cluster.spawn();
      const id = await open(victim.url);
      void post(victim.url, token, `/api/v1/assistant/threads/${id}/messages`, { text: '/slow 120000\n/say never' }).catch(() => undefined);
      while (((await (await fetch(`${b.url}/api/v1/assistant/threads/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { turn: unknown }).turn === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      victim.child.kill('SIGKILL');
      const killed = performance.now();
      while ((await post(b.url, token, `/api/v1/assistant/threads/${id}/messages`, { text: '/say mine now' })).status === 409) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      frees.push((performance.now() - killed) / 1000);
    }

    const p99 = percentile(delays, 99);
    const free = Math.max(...frees);
    return [
      {
        measure: `a turn's event on A at a follower on B, ${delays.length} events: p50 / p99`,
        figure: `${ms(percentile(delays, 50))} / ${ms(p99)}`,
        target: 'p99 ≤ 100 ms',
        met: p99 <= 100,
      },
      {
        measure: `a killed server's thread free on another (AION_TURN_LEASE 15 s), worst of ${frees.length}`,
        figure: `${free.toFixed(1)} s (median ${median(frees).toFixed(1)} s)`,
        target: '≤ 20 s',
        met: free <= 20,
      },
    ];
  });
}
