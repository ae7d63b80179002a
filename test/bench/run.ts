// `npm run bench`: the built server in its own process, measured from this
// one, every figure beside its DESIGN.md §11 target. The machine is shared
// and noisy: latencies are medians of several rounds, and every route is
// compared with a bare route of the same server in the same run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { agentRows, UNSANDBOXED_DEMO } from './agents.js';
import { assistantRows } from './assistant.js';
import { connectionLoss } from './connection-loss.js';
import { eventWriteRows, turnsAcrossServersRows } from './turns.js';
import { promptCacheRows } from './prompt-cache.js';
import { consoleRows } from './console.js';
import { screenRows } from './screen.js';
import { tabRows } from './tabs.js';
import { typingRows } from './typing.js';
import { editRows } from './edits.js';
import { liveAcrossServersRows, liveRows } from './live.js';
import { benchMcp } from './mcp.js';
import { latencyAtOne, median, ms, printTable, throughputAt, type Row, type Target } from './lib.js';

const ROUNDS = 3;
const REQUESTS_AT_ONE = 2000;
const SECONDS_AT_32 = 5;

async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

/** Median p50 and p99 over rounds, alternating the targets so noise hits both alike. */
async function compareAtOne(base: string, targets: Target[]) {
  const p50s = targets.map(() => [] as number[]);
  const p99s = targets.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) {
      const latency = await latencyAtOne(base, target, REQUESTS_AT_ONE);
      p50s[i]?.push(latency.p50);
      p99s[i]?.push(latency.p99);
    }
  }
  return targets.map((_t, i) => ({ p50: median(p50s[i] ?? []), p99: median(p99s[i] ?? []) }));
}

/** What the catalogue costs a model per turn: names, descriptions and schemas, at 4 characters a token. */
function catalogueTokens(): number {
  const text = CATALOGUE.map((t) => JSON.stringify({ name: t.name, description: t.description, input_schema: t.input_schema })).join('');
  return Math.ceil(text.length / 4);
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-bench-'));
  const tokens = catalogueTokens();
  const rows: Row[] = [
    // The server is spawned with this process's own Node (process.execPath): one version for both sides.
    { measure: 'Node.js the server and the client ran on', figure: process.version, target: 'a supported line: 20.19+, 22.13+, 24, 26', met: null },
    { measure: `tool catalogue (${CATALOGUE.length} tools), descriptions + schemas`, figure: `${tokens} tokens`, target: '≤ 4,000 tokens', met: tokens <= 4000 },
  ];
  let server: ServerProcess | null = null;
  try {
    process.stdout.write(`starting ops serve --demo on a new embedded store, on Node ${process.version} (${process.execPath})…\n`);
    // A rate the benchmark cannot reach: it measures the assistant, not its limiter.
    server = await spawnServer(['--demo', '--data', dataDir], { AION_ASSISTANT_RATE: '1000000/1h', AION_AGENTS: JSON.stringify(UNSANDBOXED_DEMO), AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' });
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
    const auth = { authorization: `Bearer ${demo.ada}` };

    const bare: Target = { path: '/healthz' };
    const projects: Target = { path: '/api/v1/projects', headers: auth };
    const json = { ...auth, 'content-type': 'application/json' };
    const readTool: Target = {
      method: 'POST',
      path: '/api/v1/assistant/tools/list_environments',
      headers: json,
      body: JSON.stringify({ project: 'shop' }),
    };
    let written = 0;
    const writeTool: Target = {
      method: 'POST',
      path: '/api/v1/assistant/tools/write_document',
      headers: json,
      body: () => JSON.stringify({ project: 'shop', path: `bench/${process.pid}-${written++}.yaml`, text: 'port: 8080\n' }),
    };

    process.stdout.write(`latency at concurrency 1 (${ROUNDS} rounds of ${REQUESTS_AT_ONE})…\n`);
    const [bareOne, projectsOne, readOne, writeOne] = await compareAtOne(server.url, [bare, projects, readTool, writeTool]);
    process.stdout.write(`throughput at concurrency 32 (${SECONDS_AT_32} s each)…\n`);
    const bare32 = await throughputAt(server.url, bare, 32, SECONDS_AT_32);
    const projects32 = await throughputAt(server.url, projects, 32, SECONDS_AT_32);
    const read32 = await throughputAt(server.url, readTool, 32, SECONDS_AT_32);
    const write32 = await throughputAt(server.url, writeTool, 32, SECONDS_AT_32);
    const loaded = await residentMegabytes(server.child.pid ?? 0);

    if (!bareOne || !projectsOne || !readOne || !writeOne) throw new Error('no latency measured');
    const share = (rps: number) => `${((100 * rps) / bare32.rps).toFixed(1)} %`;
    rows.push(
      { measure: 'bare route GET /healthz, c=1 p50 / p99', figure: `${ms(bareOne.p50)} / ${ms(bareOne.p99)}`, target: 'reference', met: null },
      { measure: 'GET /api/v1/projects (auth), c=1 p50 / p99', figure: `${ms(projectsOne.p50)} / ${ms(projectsOne.p99)}`, target: 'reference for a read (≤ 1 ms p50)', met: projectsOne.p50 <= 1 },
      { measure: 'bare route, c=32 req/s (p50 / p99)', figure: `${bare32.rps.toFixed(0)} (${bare32.p50} / ${bare32.p99} ms)`, target: 'reference', met: null },
      { measure: 'GET /api/v1/projects, c=32 req/s (p50 / p99)', figure: `${projects32.rps.toFixed(0)} (${projects32.p50} / ${projects32.p99} ms)`, target: '', met: null },
      { measure: 'GET /api/v1/projects / bare, c=32 throughput', figure: share(projects32.rps), target: '≥ 20 % of the bare route', met: projects32.rps >= 0.2 * bare32.rps },
      { measure: 'read tool list_environments (REST), c=1 p50 / p99', figure: `${ms(readOne.p50)} / ${ms(readOne.p99)}`, target: 'p50 ≤ 1 ms', met: readOne.p50 <= 1 },
      { measure: 'read tool, c=32 req/s (p50 / p99)', figure: `${read32.rps.toFixed(0)} (${read32.p50} / ${read32.p99} ms)`, target: '', met: null },
      { measure: 'read tool / bare, c=32 throughput', figure: share(read32.rps), target: '≥ 20 % of the bare route', met: read32.rps >= 0.2 * bare32.rps },
      { measure: 'write tool write_document (REST), c=1 p50 / p99', figure: `${ms(writeOne.p50)} / ${ms(writeOne.p99)}`, target: 'no target; for reference', met: null },
      { measure: 'write tool, c=32 req/s (p50 / p99)', figure: `${write32.rps.toFixed(0)} (${write32.p50} / ${write32.p99} ms)`, target: `${share(write32.rps)} of the bare route`, met: null },
      { measure: 'errors during load', figure: String(bare32.errors + projects32.errors + read32.errors + write32.errors), target: '0', met: bare32.errors + projects32.errors + read32.errors + write32.errors === 0 },
      { measure: 'memory after the load (RSS)', figure: `${loaded.toFixed(0)} MB`, target: '', met: null },
    );
    rows.push(...(await assistantRows(server.url, demo)));
    rows.push(...(await eventWriteRows(server.url)));
    rows.push(...(await agentRows(server.url, demo.ada ?? '')));
    process.stdout.write('the console in headless Chromium…\n');
    rows.push(...(await consoleRows(server.url, demo.ada ?? '')));
    rows.push(...(await screenRows(server.url, demo.ada ?? '')));
    rows.push(...(await tabRows(server.url, demo.ada ?? '')));
    rows.push(...(await typingRows(server.url, demo.ada ?? '')));
    process.stdout.write('MCP round trips…\n');
    rows.push(...(await benchMcp(server.url, demo.ada ?? '')));
    rows.push(...(await liveRows(server, demo.ada ?? '')));
    await server.stop();
    server = null;

    process.stdout.write('restarting on the existing store (3 times)…\n');
    const starts: number[] = [];
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const again = await spawnServer(['--data', dataDir]);
      starts.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      idle.push(await residentMegabytes(again.child.pid ?? 0));
      await again.stop();
    }
    rows.push({ measure: 'idle memory (RSS 1.5 s after start, median)', figure: `${median(idle).toFixed(0)} MB`, target: '≤ 200 MB', met: median(idle) <= 200 });
    rows.push({
      measure: 'start on an existing store (median of 3)',
      figure: `${(median(starts) / 1000).toFixed(2)} s`,
      target: '≤ 2 s',
      met: median(starts) <= 2000,
    });
    rows.push(...(await promptCacheRows()));
    process.stdout.write('assistant_document_edit at 100 KiB, 1 MiB, 10 MiB…\n');
    rows.push(...(await editRows()));
    const postgres = process.env.AION_BENCH_DATABASE_URL ?? process.env.AION_TEST_DATABASE_URL;
    if (postgres) {
      rows.push(...(await liveAcrossServersRows(postgres)), ...(await turnsAcrossServersRows(postgres)));
      process.stdout.write('1,000 held live requests across pg_terminate_backend of every backend…\n');
      const lost = await connectionLoss(postgres);
      rows.push(
        { measure: `connection loss: ${lost.held} held live requests across pg_terminate_backend, errors`, figure: String(lost.errors), target: '0', met: lost.errors === 0 },
        { measure: 'connection loss: held requests answered after the deploy, p50 / max', figure: `${lost.p50_ms} / ${lost.max_ms} ms`, target: '≤ 1 s', met: lost.max_ms <= 1000 },
      );
    }
    else rows.push({ measure: 'live and turns across two servers on PostgreSQL', figure: 'not run', target: 'set AION_BENCH_DATABASE_URL', met: null });
  } finally {
    if (server) await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log('');
  console.log(`server: ops serve --demo on the embedded store, AION_LOG_LEVEL=warn, on Node ${process.version}; one client process on the same 2 cores`);
  printTable(rows);
}

await main();
