// The assistant's figures: a turn with the fake model (two reads and one
// proposal), accept-all of 50 proposals, listing 1,000 threads.
import { median, ms, percentile, type Row } from './lib.js';

interface Thread {
  id: string;
}

async function post(base: string, token: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

const TURN = '/tool list_environments\n/tool list_members\n/tool create_environment {"name": "bench-env"}';

export async function assistantRows(base: string, tokens: Record<string, string>): Promise<Row[]> {
  const ada = tokens.ada ?? '';
  const olive = tokens.olive ?? '';
  const open = async (token: string) => (await post(base, token, '/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })) as Thread;

  process.stdout.write('assistant: turns with the fake model…\n');
  const turns: number[] = [];
  for (let i = 0; i < 120; i++) {
    const thread = await open(ada);
    const [took] = await timed(() => post(base, ada, `/api/v1/assistant/threads/${thread.id}/messages`, { text: TURN }));
    if (i >= 20) turns.push(took); // the first ones warm up
  }
  turns.sort((a, b) => a - b);

  process.stdout.write('assistant: accept-all of 50 proposals…\n');
  const acceptAlls: number[] = [];
  for (let round = 0; round < 5; round++) {
    const thread = await open(ada);
    const lines = Array.from({ length: 50 }, (_v, i) => `/tool set_secret {"name": "BENCH_${round}_${i}", "value": "v"}`);
    await post(base, ada, `/api/v1/assistant/threads/${thread.id}/messages`, { text: lines.join('\n') });
    const [took] = await timed(() => post(base, ada, `/api/v1/assistant/threads/${thread.id}/proposals/accept-all`));
    acceptAlls.push(took);
  }

  process.stdout.write('assistant: 1,000 threads…\n');
  for (let i = 0; i < 1000; i++) {
    const thread = await open(olive);
    if (i % 10 === 0) await post(base, olive, `/api/v1/assistant/threads/${thread.id}/messages`, { text: `hello ${i}` });
  }
  const listings: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [took] = await timed(async () => {
      const response = await fetch(`${base}/api/v1/assistant/threads`, { headers: { authorization: `Bearer ${olive}` } });
      return response.json();
    });
    listings.push(took);
  }

  const turnP50 = percentile(turns, 50);
  const acceptAll = median(acceptAlls);
  return [
    { measure: 'turn, fake model, 2 reads + 1 proposal: p50 / p99', figure: `${ms(turnP50)} / ${ms(percentile(turns, 99))}`, target: 'p50 ≤ 15 ms', met: turnP50 <= 15 },
    { measure: 'accept-all of 50 proposals (median of 5)', figure: ms(acceptAll), target: '≤ 250 ms', met: acceptAll <= 250 },
    { measure: 'GET /api/v1/assistant/threads, 1,000 threads (median of 5)', figure: ms(median(listings)), target: 'no target; for reference', met: null },
  ];
}
