// `npm run soak [-- --seconds N]`: two servers on one PostgreSQL under mixed
// load — 20 operators saving, deploying (Idempotency-Key), conversing with the
// fake model and accepting, asking for and approving change requests; 500 live
// `?wait` waiters; SSE followers — while one server is SIGKILLed (and a new
// one started), every connection is cut with pg_terminate_backend, and a
// server is SIGSTOPped and woken. A client retries a failed write on the other
// server with the same key. Then: requests by status, p50/p99 per route,
// acknowledged writes present, exactly-once, audit count, SSE resumes, live
// wakes p99. Loopback only; needs AION_TEST_DATABASE_URL. Not part of npm test.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ServerProcess } from '../helpers/process.js';
import { followTurn, type StreamedEvent } from '../helpers/sse.js';
import { withBenchCluster } from './cluster.js';
import { percentile } from './lib.js';

const OPERATORS = 20;
const WAITERS = 500;
/** A client gives up after this, and sends the write again to the other server with the same key. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Longer than a client waits: the stopped server wakes to requests whose clients left. */
const STALL_MS = REQUEST_TIMEOUT_MS + 2_000;

const adminUrl = process.env.AION_TEST_DATABASE_URL;
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 180;
if (!adminUrl) {
  console.error('npm run soak needs PostgreSQL: set AION_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (the soak makes and drops its own database there)');
  process.exit(2);
}
if (!Number.isFinite(SECONDS) || SECONDS < 10) {
  console.error('--seconds takes a whole number of seconds, at least 10');
  process.exit(2);
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** What every request did, per route: statuses (or `error`: no answer) and latencies of answers. */
const statuses = new Map<string, number>();
const latencies = new Map<string, number[]>();
/** When a waiter was answered with a new ETag, and when app.yaml was deployed (epoch ms): wakes are matched to deploys at the end. */
const wokenAt: number[] = [];
const deployedAt: number[] = [];
let abandoned = 0;
let resumes = 0;
let gaps = 0;
const acked = { deploys: [] as { environment: string; path: string; revision: number }[], saves: [] as { path: string; revision: number }[] };

await withBenchCluster(adminUrl, 2, { AION_MODEL: 'fake', AION_LOG_LEVEL: 'warn', AION_TURN_LEASE: '5s' }, async (cluster) => {
  const up: ServerProcess[] = [...cluster.servers];
  const everyServer: ServerProcess[] = [...cluster.servers];
  let turn = 0;
  const server = (offset = 0) => up[(turn++ + offset) % up.length] as ServerProcess;

  /** One request to one server, counted. */
  async function once(base: string, route: string, method: string, path: string, token: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Answer | null> {
    const started = performance.now();
    try {
      const response = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      count(route, String(response.status), performance.now() - started);
      return { status: response.status, body: parsed(text) };
    } catch {
      count(route, 'no answer', null);
      return null;
    }
  }

  /** A request tried on each server in turn while it gets no answer or a 503/409-in-flight, with the same body and key. */
  async function send(route: string, method: string, path: string, token: string, body?: unknown, key?: string): Promise<Answer | null> {
    const headers: Record<string, string> = key ? { 'idempotency-key': key } : {};
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await once(server().url, route, method, path, token, body, headers);
      if (answer && answer.status !== 503 && !(answer.status === 409 && String(answer.body.error).includes('Idempotency-Key'))) return answer;
      await pause(200);
    }
    return null;
  }

  const ada = cluster.adaToken;
  const tool = (token: string, name: string, input: Record<string, unknown>, key?: string) =>
    send(name, 'POST', `/api/v1/assistant/tools/${name}`, token, input, key);

  // Setup: 20 admins of shop, production wanting two approvals, a service token for the waiters.
  const tokens: string[] = [];
  for (let i = 0; i < OPERATORS; i++) {
    const made = await once(up[0]?.url ?? '', 'setup', 'POST', '/api/v1/operators', cluster.adminToken, { name: `soak${i}` });
    tokens.push(String((made?.body.token as { token?: string } | undefined)?.token));
    await once(up[0]?.url ?? '', 'setup', 'POST', '/api/v1/projects/shop/members', ada, { operator: `soak${i}`, role: 'admin' });
  }
  await tool(ada, 'set_environment_protection', { project: 'shop', environment: 'production', protected: true, approvals_required: 2 });
  const service = String((await once(up[0]?.url ?? '', 'setup', 'POST', '/api/v1/tokens', ada, { name: 'soak-live', service: { project: 'shop', environment: 'staging' } }))?.body.token);

  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const running = () => Date.now() < deadline;

  const text = (port: number) => `service: shop\nport: ${port}\ndatabase:\n  url: \${secret:DATABASE_URL}\n`;

  /** Saves a new revision of `path` as `token`; its number, or null. */
  async function save(token: string, path: string, known: { revision: number | null }): Promise<number | null> {
    const written = await tool(token, 'write_document', { project: 'shop', path, text: text(1000 + Math.floor(Math.random() * 60_000)), ...(known.revision ? { base_revision: known.revision } : {}) });
    const result = written?.body.result as { revision?: number } | undefined;
    if (written?.status === 200 && !written.body.is_error && result?.revision) {
      known.revision = result.revision;
      acked.saves.push({ path, revision: result.revision });
      return result.revision;
    }
    // Lost or refused (another write moved it): read where it stands.
    const read = await tool(token, 'read_document', { project: 'shop', path });
    known.revision = (read?.body.result as { revision?: number } | undefined)?.revision ?? known.revision;
    return null;
  }

  async function operator(i: number): Promise<void> {
    const token = tokens[i] ?? '';
    const path = `op-${i}.yaml`;
    const known = { revision: null as number | null };
    const thread = String((await send('open thread', 'POST', '/api/v1/assistant/threads', token, { project: 'shop', environment: 'staging' }))?.body.id);
    while (running()) {
      const pick = Math.random();
      const revision = await save(token, path, known);
      if (revision !== null && pick < 0.35) {
        const deployed = await tool(token, 'deploy', { project: 'shop', environment: 'staging', path, revision }, randomUUID());
        if (deployed?.status === 200 && !deployed.body.is_error) acked.deploys.push({ environment: 'staging', path, revision });
      } else if (revision !== null && pick < 0.6) {
        await converse(i, token, thread, path, revision);
      } else if (revision !== null && pick < 0.75) {
        const asked = await tool(token, 'deploy', { project: 'shop', environment: 'production', path, revision }, randomUUID());
        const request = (asked?.body.result as { change_request?: { id: string } } | undefined)?.change_request?.id;
        if (request) {
          const approver = tokens[(i + 1) % OPERATORS] ?? '';
          const approved = await send('approve', 'POST', `/api/v1/change-requests/${request}/approve`, approver, {});
          if (approved?.status === 200 && approved.body.status === 'accepted') acked.deploys.push({ environment: 'production', path, revision });
        }
      }
      await pause(50 + Math.random() * 150);
    }
  }

  /** A message that proposes a deploy, accepted with a key; the first five operators follow the turn over SSE from another server. */
  async function converse(i: number, token: string, thread: string, path: string, revision: number): Promise<void> {
    const following = i < 5 ? followTurn(server(1).url, token, thread) : null;
    if (following) await Promise.race([following.open, pause(2000)]);
    const answer = await send('message', 'POST', `/api/v1/assistant/threads/${thread}/messages`, token, { text: `/tool deploy {"path": "${path}", "revision": ${revision}}` });
    if (following) await followToEnd(token, thread, following);
    const proposal = (answer?.body.proposals as { id: string; status: string }[] | undefined)?.find((p) => p.status === 'pending');
    if (!proposal) return;
    const accepted = await send('accept', 'POST', `/api/v1/assistant/threads/${thread}/proposals/${proposal.id}/accept`, token, undefined, randomUUID());
    const decided = (accepted?.body.proposals as { id: string; status: string }[] | undefined)?.find((p) => p.id === proposal.id);
    if (accepted?.status === 200 && decided?.status === 'accepted') acked.deploys.push({ environment: 'staging', path, revision });
  }

  /** Reads the turn to its end; a stream that breaks is resumed on another server after its last event. */
  async function followToEnd(token: string, thread: string, first: ReturnType<typeof followTurn>): Promise<void> {
    let stream = first;
    const seen: StreamedEvent[] = [];
    for (let tries = 0; tries < 3; tries++) {
      const ended = await Promise.race([stream.done.then(() => true, () => false), pause(10_000).then(() => false)]);
      seen.push(...stream.events.filter((e) => !seen.some((s) => s.id === e.id)));
      stream.close();
      if (ended || seen.at(-1)?.type === 'ended') break;
      resumes++;
      const last = seen.at(-1)?.id;
      stream = followTurn(server(1).url, token, thread, last ? { lastEventId: last } : {});
    }
    const seqs = seen.map((e) => Number(e.id?.split(':')[1])).filter(Number.isFinite);
    for (let k = 1; k < seqs.length; k++) if ((seqs[k] ?? 0) !== (seqs[k - 1] ?? 0) + 1 && seen[k]?.id?.split(':')[0] === seen[k - 1]?.id?.split(':')[0]) gaps++;
  }

  /** A service waiting for app.yaml to change, again and again. */
  async function waiter(n: number): Promise<void> {
    let etag = '';
    while (running()) {
      const base = (up[n % up.length] ?? server()).url;
      const began = performance.now();
      try {
        const response = await fetch(`${base}/api/v1/live/shop/staging/app.yaml?wait=10`, {
          headers: { authorization: `Bearer ${service}`, ...(etag ? { 'if-none-match': etag } : {}) },
          signal: AbortSignal.timeout(15_000),
        });
        await response.arrayBuffer();
        count('live ?wait', String(response.status), null);
        if (response.status === 200) {
          if (etag) wokenAt.push(Date.now());
          etag = response.headers.get('etag') ?? '';
        }
      } catch {
        count('live ?wait', 'no answer', null);
        await pause(200);
      }
      if (performance.now() - began < 5) await pause(100);
    }
  }

  /** Ada deploys app.yaml to staging every 3 s: what the waiters wait for. */
  async function liveDeployer(): Promise<void> {
    const known = { revision: null as number | null };
    while (running()) {
      const revision = await save(ada, 'app.yaml', known);
      if (revision !== null) {
        const deployed = await tool(ada, 'deploy', { project: 'shop', environment: 'staging', path: 'app.yaml', revision }, randomUUID());
        if (deployed?.status === 200 && !deployed.body.is_error) {
          acked.deploys.push({ environment: 'staging', path: 'app.yaml', revision });
          deployedAt.push(Date.parse(String((deployed.body.result as { deployed_at: string }).deployed_at)));
        }
      }
      await pause(3000);
    }
  }

  async function faults(): Promise<string[]> {
    const log: string[] = [];
    const at = (fraction: number) => pause(Math.max(0, started + fraction * SECONDS * 1000 - Date.now()));
    const database = new URL(cluster.databaseUrl).pathname.slice(1);
    await at(0.25);
    const killed = up.pop();
    killed?.child.kill('SIGKILL');
    log.push(`${elapsed(started)} SIGKILL of a server`);
    const fresh = await cluster.spawn();
    up.push(fresh);
    everyServer.push(fresh);
    log.push(`${elapsed(started)} a new server started`);
    await at(0.5);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const cut = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    await admin.end();
    log.push(`${elapsed(started)} pg_terminate_backend of ${cut.rowCount} connections`);
    await at(0.75);
    const sleeper = up[0] as ServerProcess;
    sleeper.child.kill('SIGSTOP');
    log.push(`${elapsed(started)} SIGSTOP of a server for ${STALL_MS} ms`);
    await pause(STALL_MS);
    sleeper.child.kill('SIGCONT');
    log.push(`${elapsed(started)} SIGCONT`);
    return log;
  }

  process.stdout.write(`soak: ${SECONDS} s, ${OPERATORS} operators, ${WAITERS} live waiters, two servers on PostgreSQL…\n`);
  const [faultLog] = await Promise.all([
    faults(),
    ...Array.from({ length: OPERATORS }, (_v, i) => operator(i)),
    ...Array.from({ length: WAITERS }, (_v, n) => waiter(n)),
    liveDeployer(),
  ]);
  await pause(1000);
  abandoned = everyServer.flatMap((s) => s.stderr).filter((line) => line.includes('request abandoned before its write')).length;
  await report(cluster.databaseUrl, faultLog);
});

async function report(databaseUrl: string, faultLog: string[]): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const present = async (statement: string, values: unknown[]) => ((await db.query(statement, values)).rowCount ?? 0) > 0;
  let missingDeploys = 0;
  for (const d of acked.deploys) {
    const found = await present(
      'select 1 from deployments d join environments e on e.id = d.environment_id where e.name = $1 and d.path = $2 and d.revision = $3',
      [d.environment, d.path, d.revision],
    );
    if (!found) missingDeploys++;
  }
  let missingSaves = 0;
  for (const s of acked.saves) {
    if (!(await present('select 1 from revisions r join documents d on d.id = r.document_id where d.path = $1 and r.number = $2', [s.path, s.revision]))) missingSaves++;
  }
  const twice = await db.query(
    'select e.name, d.path, d.revision from deployments d join environments e on e.id = d.environment_id group by 1, 2, 3 having count(*) > 1',
  );
  const audit = Number((await db.query('select count(*) as n from audit_entries')).rows[0]?.n ?? 0);
  const deploymentsTotal = Number((await db.query('select count(*) as n from deployments')).rows[0]?.n ?? 0);
  await db.end();

  console.log('\nfaults:');
  for (const line of faultLog) console.log(`  ${line}`);
  console.log('\nrequests by route and status:');
  console.table(
    Object.fromEntries(
      [...new Set([...statuses.keys()].map((k) => k.split(' | ')[0] ?? ''))].map((route) => [
        route,
        Object.fromEntries([...statuses].filter(([k]) => k.startsWith(`${route} | `)).map(([k, n]) => [k.split(' | ')[1] ?? '', n])),
      ]),
    ),
  );
  console.log('latency per route (answered requests, ms):');
  console.table(
    Object.fromEntries(
      [...latencies].map(([route, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [route, { count: sorted.length, p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) }];
      }),
    ),
  );
  // Each wake against the newest deploy recorded before it (the store's clock, this machine's): an upper bound of the delay.
  const sortedWakes = wokenAt
    .map((at) => at - Math.max(...deployedAt.filter((d) => d <= at)))
    .filter((delay) => delay < 10_000)
    .sort((a, b) => a - b);
  console.table({
    'acknowledged deploys present': `${acked.deploys.length - missingDeploys} / ${acked.deploys.length}`,
    'acknowledged saves present': `${acked.saves.length - missingSaves} / ${acked.saves.length}`,
    'exactly-once: a revision deployed twice': String(twice.rowCount ?? 0),
    'deployments in all': String(deploymentsTotal),
    'audit entries': String(audit),
    'SSE resumes (gaps)': `${resumes} (${gaps})`,
    'writes not started for an abandoned request (server logs)': String(abandoned),
    'live wakes p50 / p99 (ms, from deployed_at)': `${Math.round(percentile(sortedWakes, 50))} / ${Math.round(percentile(sortedWakes, 99))} of ${sortedWakes.length}`,
  });
  if (missingDeploys + missingSaves + (twice.rowCount ?? 0) + gaps > 0) process.exitCode = 1;
}

function count(route: string, status: string, ms: number | null): void {
  const key = `${route} | ${status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
  if (ms !== null) {
    const list = latencies.get(route) ?? [];
    list.push(ms);
    latencies.set(route, list);
  }
}

function parsed(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { error: text };
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function elapsed(started: number): string {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}
