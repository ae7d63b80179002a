// The live endpoint under load (DESIGN.md §11, issue 12): GET 200 and 304
// beside the bare route of the same run, a 500 KB document beside the small
// one, and ten thousand held requests woken by one deploy — on one server,
// and across two servers on PostgreSQL. Everything talks to 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import type { ServerProcess } from '../helpers/process.js';
import { withBenchCluster } from './cluster.js';
import { median, throughputAt, type Row, type Target } from './lib.js';

const ROUNDS = 3;
const SECONDS = 5;
const CONNECTIONS = 32;
const WAITERS = 10_000;
/** Connections opened at once while holding the waiters. */
const OPENING_BATCH = 500;
const SMALL = '/api/v1/live/shop/staging/app.yaml';
const BIG = '/api/v1/live/shop/staging/big.yaml';

interface Session {
  base: string;
  token: string;
}

async function call(session: Session, method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(session.base + route, {
    method,
    headers: { authorization: `Bearer ${session.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

async function tool(session: Session, name: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await call(session, 'POST', `/api/v1/assistant/tools/${name}`, input);
  if (answer.is_error) throw new Error(`${name} failed: ${JSON.stringify(answer)}`);
  return answer.result as Record<string, unknown>;
}

/** Saves `text` at `file` of shop; answers the function that deploys it to staging, which answers when (the store's clock) the deployment was recorded. */
async function save(owner: Session, file: string, text: string): Promise<() => Promise<number>> {
  const current = await fetch(`${owner.base}/api/v1/assistant/tools/read_document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'shop', path: file }),
  });
  const read = (await current.json()) as { is_error?: boolean; result?: { revision: number } };
  const base = current.ok && !read.is_error && read.result ? { base_revision: read.result.revision } : {};
  await tool(owner, 'write_document', { project: 'shop', path: file, text, ...base });
  return async () => Date.parse((await tool(owner, 'deploy', { project: 'shop', environment: 'staging', path: file })).deployed_at as string);
}

async function serviceToken(owner: Session): Promise<string> {
  const minted = await call(owner, 'POST', '/api/v1/tokens', { name: `bench-${randomBytes(3).toString('hex')}`, service: { project: 'shop', environment: 'staging' } });
  return minted.token as string;
}

async function etagOf(base: string, route: string, token: string): Promise<string> {
  const response = await fetch(base + route, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
  await response.arrayBuffer();
  return response.headers.get('etag') ?? '';
}

/** About 500 KB of YAML: a long list of settings. */
function bigDocument(): string {
  const lines = ['service: big', 'port: 9000', 'settings:'];
  for (let i = 0; lines.join('\n').length < 500_000; i++) lines.push(`  setting_${i}: "a value of setting ${i}, long enough to matter"`);
  return lines.join('\n') + '\n';
}

/** How many bytes a 200 of `route` carries in one encoding. */
async function sizeOf(base: string, route: string, token: string, encoding: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () =>
      socket.end(`GET ${route} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      resolve(answer.length - answer.indexOf('\r\n\r\n') - 4);
    });
    socket.on('error', reject);
  });
}

const kb = (bytes: number | undefined) => `${Math.round((bytes ?? 0) / 1000)} KB`;

async function residentKilobytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

async function heldOn(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^aion_held_requests (\d+)$/m.exec(text)?.[1] ?? 0);
}

interface Held {
  /** When each request was answered with a 200 (epoch ms), once all are. */
  answered: Promise<number[]>;
  close(): void;
}

/**
 * Holds `count` requests with `?wait=60` on raw sockets (an HTTP client per
 * request would cost the load generator more than the server).
 */
async function holdWaiters(base: string, route: string, token: string, etag: string, count: number): Promise<Held> {
  const { hostname, port } = new URL(base);
  const request = `GET ${route}?wait=60 HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nIf-None-Match: ${etag}\r\n\r\n`;
  const sockets: net.Socket[] = [];
  const answers: Promise<number>[] = [];
  for (let opened = 0; opened < count; opened += OPENING_BATCH) {
    const batch = Array.from({ length: Math.min(OPENING_BATCH, count - opened) }, () => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      sockets.push(socket);
      answers.push(
        new Promise<number>((resolve, reject) => {
          socket.once('data', (chunk: Buffer) => {
            const at = performance.timeOrigin + performance.now();
            const status = chunk.subarray(0, 12).toString();
            if (status === 'HTTP/1.1 200') resolve(at);
            else reject(new Error(`a held request answered ${status}`));
          });
          socket.once('error', reject);
        }),
      );
      return new Promise<void>((resolve, reject) => {
        socket.once('connect', () => socket.write(request, () => resolve()));
        socket.once('error', reject);
      });
    });
    await Promise.all(batch);
  }
  const deadline = Date.now() + 120_000;
  while ((await heldOn(base)) < count) {
    if (Date.now() > deadline) throw new Error(`only ${await heldOn(base)} of ${count} requests were held`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { answered: Promise.all(answers), close: () => sockets.forEach((s) => s.destroy()) };
}

/**
 * Holds the waiters on `holder`, deploys through `deployer`: when the first
 * and the last were woken after the deployment was recorded (its transaction,
 * on the store's clock; the commit comes a little later, so this bounds the
 * delay from above), and memory per waiter.
 */
async function wakeWaiters(holder: ServerProcess, deployer: Session, token: string) {
  const etag = await etagOf(holder.url, SMALL, token);
  const deploy = await save(deployer, 'app.yaml', `service: shop\nport: ${10_000 + Math.floor(Math.random() * 50_000)}\ndatabase:\n  url: \${secret:DATABASE_URL}\n`);
  const before = await residentKilobytes(holder.child.pid ?? 0);
  const held = await holdWaiters(holder.url, SMALL, token, etag, WAITERS);
  const during = await residentKilobytes(holder.child.pid ?? 0);
  try {
    const recorded = await deploy();
    const answered = (await held.answered).map((at) => at - recorded);
    return { first: Math.min(...answered), last: Math.max(...answered), perWaiterKb: (during - before) / WAITERS };
  } finally {
    held.close();
  }
}

/** GET 200, 304 and a 500 KB 200 beside the bare route; then ten thousand waiters on this one server. */
export async function liveRows(server: ServerProcess, ownerToken: string): Promise<Row[]> {
  const owner = { base: server.url, token: ownerToken };
  await (await save(owner, 'big.yaml', bigDocument()))();
  const token = await serviceToken(owner);
  const auth = { authorization: `Bearer ${token}` };
  const etag = await etagOf(server.url, SMALL, token);
  const targets: Target[] = [
    { path: '/healthz' },
    { path: SMALL, headers: auth },
    { path: SMALL, headers: { ...auth, 'if-none-match': etag }, notModified: true },
    // As services read it: their HTTP clients accept compressed bodies.
    { path: BIG, headers: { ...auth, 'accept-encoding': 'gzip, br' } },
    { path: BIG, headers: { ...auth, 'accept-encoding': 'identity' } },
  ];
  const rps = targets.map(() => [] as number[]);
  let errors = 0;
  process.stdout.write(`live endpoint at c=${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s each…\n`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) {
      const measured = await throughputAt(server.url, target, CONNECTIONS, SECONDS);
      rps[i]?.push(measured.rps);
      errors += measured.errors;
    }
  }
  const [bare, small, notModified, big, bigPlain] = rps.map(median) as [number, number, number, number, number];
  const sizes = await Promise.all(['br', 'identity'].map((encoding) => sizeOf(server.url, BIG, token, encoding)));
  const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

  process.stdout.write(`${WAITERS} held requests on one server…\n`);
  const one = await wakeWaiters(server, owner, token);
  return [
    { measure: `live: bare route, c=${CONNECTIONS} req/s (median of ${ROUNDS})`, figure: bare.toFixed(0), target: 'reference', met: null },
    { measure: 'live: GET 200 small document, req/s / bare', figure: `${small.toFixed(0)} / ${share(small, bare)}`, target: '≥ 50 % of the bare route', met: small >= 0.5 * bare },
    { measure: 'live: GET 304, req/s / bare', figure: `${notModified.toFixed(0)} / ${share(notModified, bare)}`, target: '≥ 70 % of the bare route', met: notModified >= 0.7 * bare },
    {
      measure: `live: GET 200 of a ${kb(sizes[1])} document (br, ${kb(sizes[0])} sent), req/s / small`,
      figure: `${big.toFixed(0)} / ${share(big, small)}`,
      target: '≥ 30 % of the small one',
      met: big >= 0.3 * small,
    },
    { measure: 'live: the same uncompressed, req/s / small', figure: `${bigPlain.toFixed(0)} / ${share(bigPlain, small)}`, target: 'reference', met: null },
    { measure: 'live: errors during load', figure: String(errors), target: '0', met: errors === 0 },
    ...wakeRows('one server', one),
  ];
}

function wakeRows(where: string, woken: { first: number; last: number; perWaiterKb: number }): Row[] {
  return [
    {
      measure: `live: ${WAITERS} held, ${where}: last (first) woken after the deployment was recorded`,
      figure: `${woken.last.toFixed(0)} ms (${woken.first.toFixed(0)} ms)`,
      target: '≤ 1 s after the commit',
      met: woken.last <= 1000,
    },
    { measure: `live: memory per held request, ${where} (RSS)`, figure: `${woken.perWaiterKb.toFixed(1)} KB`, target: 'reported', met: null },
  ];
}

/**
 * Two servers on one fresh PostgreSQL database: ten thousand requests held on
 * the second, the deploy made on the first. `adminUrl` is a superuser's URL.
 */
export async function liveAcrossServersRows(adminUrl: string): Promise<Row[]> {
  return withBenchCluster(adminUrl, 2, {}, async ({ servers, adaToken }) => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const owner = { base: first.url, token: adaToken };
    const token = await serviceToken(owner);
    process.stdout.write(`${WAITERS} held requests on a second server on PostgreSQL…\n`);
    return wakeRows('across two servers on PostgreSQL', await wakeWaiters(second, owner, token));
  });
}
