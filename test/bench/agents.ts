// An agent turn with `ops demo-agent` against the built-in fake turn of the
// same run: the first message of a thread (spawn, initialize, session,
// prompt), in its sandbox and without one, and a follow-up; the follow-up
// less the fake turn is what Aion adds.
import { OPS_BIN } from '../helpers/paths.js';
import { median, ms, percentile, type Row } from './lib.js';

/** The demo agent again, outside the sandbox, to measure what the sandbox costs a first message. */
export const UNSANDBOXED_DEMO = { 'demo-plain': { title: 'Demo agent, unsandboxed', command: process.execPath, args: [OPS_BIN, 'demo-agent'], sandbox: false } };

async function post(base: string, token: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function agentRows(base: string, token: string): Promise<Row[]> {
  const open = (agent: string | null) => post(base, token, '/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent });
  const say = (id: string) => () => post(base, token, `/api/v1/assistant/threads/${id}/messages`, { text: '/say hi' });

  process.stdout.write('agents: first messages with ops demo-agent, in its sandbox and without…\n');
  const firsts: number[] = [];
  const plainFirsts: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (const [agent, times] of [['demo-agent', firsts], ['demo-plain', plainFirsts]] as const) {
      const thread = await open(agent);
      times.push(await timed(say(thread.id)));
      // Deleting stops the agent, so none is left idle.
      await fetch(`${base}/api/v1/assistant/threads/${thread.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    }
  }
  const sandboxCost = median(firsts) - median(plainFirsts);

  process.stdout.write('agents: follow-ups, and the fake model’s turns…\n');
  const agentThread = await open('demo-agent');
  const fakeThread = await open(null);
  await say(agentThread.id)();
  const followUps: number[] = [];
  const fakes: number[] = [];
  for (let i = 0; i < 120; i++) {
    followUps.push(await timed(say(agentThread.id)));
    fakes.push(await timed(say(fakeThread.id)));
  }
  followUps.splice(0, 20); // the first ones warm up
  fakes.splice(0, 20);
  followUps.sort((a, b) => a - b);
  fakes.sort((a, b) => a - b);
  const followUp = percentile(followUps, 50);
  const fake = percentile(fakes, 50);
  return [
    { measure: 'agent thread, first message (spawn + initialize + session + prompt), sandboxed, median of 8', figure: ms(median(firsts)), target: 'for reference', met: null },
    { measure: 'the same, unsandboxed ("sandbox": false), median of 8', figure: ms(median(plainFirsts)), target: 'for reference', met: null },
    { measure: 'what the sandbox adds to a first message (median less median)', figure: ms(sandboxCost), target: '≤ 300 ms', met: sandboxCost <= 300 },
    {
      measure: 'agent follow-up, ops demo-agent /say: p50 / p99',
      figure: `${ms(followUp)} / ${ms(percentile(followUps, 99))}`,
      target: 'no target; for reference',
      met: null,
    },
    { measure: 'built-in fake turn, /say: p50', figure: ms(fake), target: 'for reference', met: null },
    { measure: 'what an agent turn adds (follow-up p50 less the fake turn p50)', figure: ms(followUp - fake), target: '≤ 10 ms', met: followUp - fake <= 10 },
  ];
}
