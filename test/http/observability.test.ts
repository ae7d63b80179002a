// What an operator watching Aion sees: metrics that say what happened, with
// bounded labels; a log line per tool run; a 401 logged as one; held waits
// apart from request latency; and no token or secret value in any log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, request, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callTool, demoClients, mustCall } from '../helpers/tools.js';

const CANARY = 'canary-obs-5e1d-never-logged';
const LIVE_ROUTE = '/api/v1/live/:project/:environment/*';
let server: TestServer;
let ada: Client, vic: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, vic } = demoClients(server));
});
afterAll(() => server.stop());

/** The value of one sample of /metrics, 0 when it is absent. */
async function sample(name: string, labels: Record<string, string>): Promise<number> {
  const text = (await request(server.url, 'GET', '/metrics')).text;
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{(.*)\}/.exec(line)?.[1]?.split(',') ?? [];
    if (wanted.every((pair) => inside.includes(pair)) && inside.length === wanted.length) return Number(line.split(' ').at(-1));
  }
  return 0;
}

async function change(name: string, labels: Record<string, string>, act: () => Promise<unknown>): Promise<number> {
  const before = await sample(name, labels);
  await act();
  return (await sample(name, labels)) - before;
}

interface Thread {
  id: string;
  proposals: { id: string; status: string }[];
}

async function proposing(line: string): Promise<Thread> {
  const opened = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as Thread;
  const answer = await ada.post(`/api/v1/assistant/threads/${opened.id}/messages`, { text: line });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Thread;
}

describe('metrics', () => {
  it('count tool runs by tool, outcome and via', async () => {
    const ok = { tool: 'list_environments', outcome: 'ok', via: 'rest' };
    expect(await change('aion_tool_runs_total', ok, () => mustCall(vic, 'list_environments', { project: 'shop' }))).toBe(1);
    const console = { tool: 'list_environments', outcome: 'ok', via: 'console' };
    const fromConsole = () => vic.post('/api/v1/assistant/tools/list_environments', { project: 'shop' }, { headers: { 'x-aion-via': 'console' } });
    expect(await change('aion_tool_runs_total', console, fromConsole)).toBe(1);
    const refused = { tool: 'deploy', outcome: 'refused', via: 'rest' };
    const deployAsViewer = () => callTool(vic, 'deploy', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    expect(await change('aion_tool_runs_total', refused, deployAsViewer)).toBe(1);
    const failed = { tool: 'read_document', outcome: 'error', via: 'rest' };
    expect(await change('aion_tool_runs_total', failed, () => callTool(vic, 'read_document', { project: 'shop', path: 'no.yaml' }))).toBe(1);
    expect(await sample('aion_tool_run_duration_seconds_count', { tool: 'read_document' })).toBeGreaterThanOrEqual(1);
  });

  it('count deployments and rollbacks by environment, and only those that happened', async () => {
    const deployed = { environment: 'staging', kind: 'deploy' };
    const deploy = () => mustCall(ada, 'deploy', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    expect(await change('aion_deployments_total', deployed, deploy)).toBe(1);
    const rolledBack = { environment: 'staging', kind: 'rollback' };
    const rollback = () => mustCall(ada, 'rollback', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    expect(await change('aion_deployments_total', rolledBack, rollback)).toBe(1);
    const refused = () => callTool(vic, 'deploy', { project: 'shop', environment: 'production', path: 'app.yaml' });
    expect(await change('aion_deployments_total', { environment: 'production', kind: 'deploy' }, refused)).toBe(0);
  });

  it('count turns by model and outcome with their durations, and proposals decided by outcome', async () => {
    const turns = { model: 'fake', outcome: 'ok' };
    let thread: Thread | undefined;
    expect(await change('aion_turn_duration_seconds_count', turns, async () => (thread = await proposing('/tool create_environment {"name": "obs-a"}')))).toBe(1);
    const id = thread?.id ?? '';
    const busy = () => ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: 'meanwhile' });
    expect(await change('aion_turn_duration_seconds_count', { model: 'fake', outcome: 'conflict' }, busy)).toBe(1);

    const accept = () => ada.post(`/api/v1/assistant/threads/${id}/proposals/${thread?.proposals[0]?.id}/accept`);
    expect(await change('aion_proposals_decided_total', { outcome: 'accepted' }, accept)).toBe(1);
    const rejected = await proposing('/tool create_environment {"name": "obs-b"}');
    const reject = () => ada.post(`/api/v1/assistant/threads/${rejected.id}/proposals/${rejected.proposals[0]?.id}/reject`);
    expect(await change('aion_proposals_decided_total', { outcome: 'rejected' }, reject)).toBe(1);
    const failing = await proposing('/tool delete_document {"path": "never.yaml"}');
    const fail = () => ada.post(`/api/v1/assistant/threads/${failing.id}/proposals/${failing.proposals[0]?.id}/accept`);
    expect(await change('aion_proposals_decided_total', { outcome: 'failed' }, fail)).toBe(1);
    expect(await sample('aion_tool_runs_total', { tool: 'create_environment', outcome: 'ok', via: 'assistant' })).toBe(1);
  });

  it('keep held waits out of request latency', async () => {
    const minted = await ada.post('/api/v1/tokens', { name: 'obs-svc', service: { project: 'shop', environment: 'staging' } });
    const service = client(server.url, (minted.body as { token: string }).token);
    const path = '/api/v1/live/shop/staging/app.yaml';
    const quick = { method: 'GET', route: LIVE_ROUTE, status: '200' };
    const read = await change('aion_http_request_duration_seconds_count', quick, () => service.get(path));
    expect(read).toBe(1);
    const etag = (await service.get(path)).headers.get('etag') ?? '';
    const held = { method: 'GET', route: LIVE_ROUTE, status: '304' };
    const waitedBefore = await sample('aion_held_request_duration_seconds_sum', held);
    const answer = await change('aion_held_request_duration_seconds_count', held, async () => {
      expect((await service.get(`${path}?wait=1`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    });
    expect(answer).toBe(1);
    expect((await sample('aion_held_request_duration_seconds_sum', held)) - waitedBefore).toBeGreaterThanOrEqual(0.9);
    expect(await sample('aion_http_request_duration_seconds_count', held)).toBe(0);
  });

  it('label nothing by project, operator or id', async () => {
    const text = (await request(server.url, 'GET', '/metrics')).text;
    const aion = text.split('\n').filter((l) => l.startsWith('aion_'));
    expect(aion.length).toBeGreaterThan(0);
    for (const line of aion) {
      expect(line).not.toMatch(/project=|operator=|thread=|token=|"shop"|[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
  });
});

describe('logs', () => {
  const parsed = () => server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('have one line per tool run with who, what, how, where, the outcome and the duration', async () => {
    await ada.post('/api/v1/assistant/tools/deploy', { project: 'shop', environment: 'staging', path: 'app.yaml' }, { headers: { 'x-request-id': 'obs-deploy' } });
    await callTool(vic, 'set_secret', { project: 'shop', environment: 'production', name: 'LOGGED', value: CANARY });
    const runs = parsed().filter((l) => l.msg === 'tool run');
    expect(runs.filter((l) => l.reqId === 'obs-deploy')).toEqual([
      expect.objectContaining({ operator: 'ada', tool: 'deploy', outcome: 'ok' }),
    ]);
    expect(runs.filter((l) => l.tool === 'deploy' && l.operator === 'ada').at(-1)).toMatchObject({
      operator: 'ada',
      tool: 'deploy',
      via: 'rest',
      project: 'shop',
      environment: 'staging',
      outcome: 'ok',
      duration_ms: expect.any(Number),
    });
    expect(runs.filter((l) => l.tool === 'set_secret').at(-1)).toMatchObject({ operator: 'vic', outcome: 'refused', environment: 'production' });
  });

  it('log a 401 as one line that says so, and answer it with WWW-Authenticate: Bearer', async () => {
    const token = `aion_${'Z'.repeat(43)}`;
    const refused = await request(server.url, 'GET', '/api/v1/projects', { token, headers: { 'x-request-id': 'obs-401' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await request(server.url, 'GET', '/api/v1/projects')).headers.get('www-authenticate')).toBe('Bearer');
    const lines = parsed().filter((l) => l.reqId === 'obs-401' && l.status === 401);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/^bad token/);
  });

  it('never hold a token or a secret value', async () => {
    await mustCall(ada, 'set_secret', { project: 'shop', environment: 'staging', name: 'LOGGED', value: CANARY });
    const all = server.logs.join('\n');
    expect(all).not.toContain(CANARY);
    for (const token of [server.adminToken, ...Object.values(server.demoTokens)]) expect(all).not.toContain(token);
    expect(all).not.toContain('Z'.repeat(43));
  });
});
