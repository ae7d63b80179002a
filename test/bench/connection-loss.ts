// Losing the database connection (DESIGN.md §11, issue 18): a thousand live
// requests held on one server on PostgreSQL, every backend of its database
// terminated, a revocation and a write at once, then a deploy. Each held
// request must answer 200 with the new body, none a 500, soon after the deploy.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { withBenchCluster } from './cluster.js';
import { percentile } from './lib.js';

const HELD = 1000;
const ROUTE = '/api/v1/live/shop/staging/app.yaml';
/** Sockets opened at once while holding. */
const OPENING_BATCH = 250;
/** Held requests wait this long: far longer than the scenario, so only the deploy may answer them. */
const WAIT_SECONDS = 30;

/** What happened across the termination; times are from the deploy's request on. */
export interface AcrossTermination {
  held: number;
  /** The status of each held request (0: its connection closed unanswered). */
  statuses: number[];
  /** When each held request was answered, ms after the deploy was asked for (negative: before it). */
  answeredAfterDeploy: number[];
  revocation: number;
  /** How long the revocation and the write took together, from the termination on. */
  writesMs: number;
  /** The revoked token's next request. */
  revokedAfter: number;
  write: number;
  deploy: number;
}

interface Session {
  base: string;
  token: string;
}

async function call(session: Session, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(session.base + route, {
    method,
    headers: { authorization: `Bearer ${session.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A tool call's status: its HTTP status, or 500 standing for a tool that answered an error. */
async function tool(owner: Session, name: string, input: Record<string, unknown>): Promise<{ status: number; result: Record<string, unknown> }> {
  const answer = await call(owner, 'POST', `/api/v1/assistant/tools/${name}`, input);
  const result = (answer.body.result ?? answer.body) as Record<string, unknown>;
  return { status: answer.status === 200 && answer.body.is_error ? 500 : answer.status, result };
}

async function serviceToken(owner: Session): Promise<{ id: string; token: string }> {
  const minted = await call(owner, 'POST', '/api/v1/tokens', { name: `loss-${randomBytes(3).toString('hex')}`, service: { project: 'shop', environment: 'staging' } });
  if (minted.status !== 201) throw new Error(`minting a service token answered ${minted.status}`);
  return minted.body as { id: string; token: string };
}

async function heldOn(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^aion_held_requests (\d+)$/m.exec(text)?.[1] ?? 0);
}

/** Holds `count` requests on raw sockets; each answer is its status and when it came. */
async function hold(base: string, token: string, etag: string, count: number): Promise<{ answers: Promise<{ status: number; at: number }[]>; close(): void }> {
  const { hostname, port } = new URL(base);
  const request = `GET ${ROUTE}?wait=${WAIT_SECONDS} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nIf-None-Match: ${etag}\r\n\r\n`;
  const sockets: net.Socket[] = [];
  const answers: Promise<{ status: number; at: number }>[] = [];
  for (let opened = 0; opened < count; opened += OPENING_BATCH) {
    const batch = Array.from({ length: Math.min(OPENING_BATCH, count - opened) }, () => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      sockets.push(socket);
      answers.push(
        new Promise((resolve) => {
          socket.once('data', (chunk: Buffer) => resolve({ status: Number(chunk.subarray(9, 12).toString()), at: performance.now() }));
          socket.once('close', () => resolve({ status: 0, at: performance.now() }));
        }),
      );
      return new Promise<void>((resolve, reject) => {
        socket.once('connect', () => socket.write(request, () => resolve()));
        socket.once('error', reject);
      });
    });
    await Promise.all(batch);
  }
  const deadline = Date.now() + 30_000;
  while ((await heldOn(base)) < count) {
    if (Date.now() > deadline) throw new Error(`only ${await heldOn(base)} of ${count} requests were held`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { answers: Promise.all(answers), close: () => sockets.forEach((s) => s.destroy()) };
}

/**
 * The scenario on a running server whose store is `databaseUrl` (a superuser
 * may connect to it): `owner` is an owner's session on that server.
 */
export async function acrossTermination(owner: Session, databaseUrl: string, count = HELD): Promise<AcrossTermination> {
  const reader = await serviceToken(owner);
  const doomed = await serviceToken(owner);
  const first = await fetch(owner.base + ROUTE, { headers: { authorization: `Bearer ${reader.token}` } });
  await first.arrayBuffer();
  const etag = first.headers.get('etag') ?? '';
  // The doomed token is known to the server (cached) before the connection drops.
  await (await fetch(owner.base + ROUTE, { headers: { authorization: `Bearer ${doomed.token}` } })).arrayBuffer();
  const { revision, text } = (await tool(owner, 'read_document', { project: 'shop', path: 'app.yaml' })).result as { revision: number; text: string };

  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const held = await hold(owner.base, reader.token, etag, count);
  try {
    // Every connection the server has: its pool's and the one that listens.
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    const terminated = performance.now();
    const [revocation, write] = await Promise.all([
      call(owner, 'DELETE', `/api/v1/tokens/${doomed.id}`),
      tool(owner, 'write_document', { project: 'shop', path: 'app.yaml', text: text.replace(/port: \d+/, `port: ${20_000 + (revision % 10_000)}`), base_revision: revision }),
    ]);
    const writesMs = performance.now() - terminated;
    const revokedAfter = (await fetch(owner.base + ROUTE, { headers: { authorization: `Bearer ${doomed.token}` } })).status;
    const asked = performance.now();
    const deploy = await tool(owner, 'deploy', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    const answers = await Promise.race([
      held.answers,
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('held requests still unanswered 20 s after the deploy')), 20_000)),
    ]);
    return {
      held: count,
      statuses: answers.map((a) => a.status),
      answeredAfterDeploy: answers.map((a) => a.at - asked),
      revocation: revocation.status,
      writesMs,
      revokedAfter,
      write: write.status,
      deploy: deploy.status,
    };
  } finally {
    held.close();
    await admin.end();
  }
}

/** The figures of one run: requests that failed (held ones not 200, the revocation, the write, the deploy), and when held ones answered. */
export function figuresOf(run: AcrossTermination): { errors: number; held: number; p50_ms: number; max_ms: number } {
  const failed = run.statuses.filter((s) => s !== 200).length + [run.revocation === 204, run.write === 200, run.deploy === 200].filter((ok) => !ok).length;
  const times = [...run.answeredAfterDeploy].sort((a, b) => a - b);
  return { errors: failed, held: run.held, p50_ms: Math.round(percentile(times, 50)), max_ms: Math.round(times.at(-1) ?? NaN) };
}

/**
 * `npm run bench`'s measurement: one `ops serve --demo` on a new database of
 * the PostgreSQL at `adminUrl` (a superuser's URL), the scenario once.
 */
export function connectionLoss(adminUrl: string): Promise<{ errors: number; held: number; p50_ms: number; max_ms: number }> {
  return withBenchCluster(adminUrl, 1, {}, async (cluster) => {
    const [server] = cluster.servers;
    if (!server) throw new Error('one server expected');
    return figuresOf(await acrossTermination({ base: server.url, token: cluster.adminToken }, cluster.databaseUrl));
  });
}
