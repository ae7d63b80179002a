// The official MCP conformance suite's server scenarios against `/mcp` and
// against `ops mcp` (stdio), for each revision Aion speaks (2025-11-25,
// 2026-07-28), from the pinned suite on Node 22 (which it needs), both
// installed into the test agents' cache (test/acp/real/install.ts). .ci/run
// calls it after the build. The suite sends no token, so a loopback relay in
// front of the server adds ada's; it speaks HTTP only, so stdio is reached
// through another (stdio-relay.ts).
// What does not apply is each revision's baseline (beside this file, README
// "MCP conformance"): whole scenarios under `server`, and single checks under
// `checks` inside scenarios that otherwise apply — those scenarios' other
// checks are read from the suite's results and must pass. Its `stdio` part
// adds what HTTP alone carries. Any other failure, and a listed check that
// passes now, fails the run.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { installed } from '../../acp/real/install.js';
import { spawnServer } from '../../helpers/process.js';
import { startStdioRelay } from './stdio-relay.js';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const TRANSPORTS = ['http', 'stdio'] as const;
type Transport = (typeof TRANSPORTS)[number];
const HERE = path.dirname(new URL(import.meta.url).pathname);

/** A relay on loopback that adds the bearer token to each request it passes to `target`. */
function tokenRelay(target: string, token: string): Promise<http.Server> {
  const relay = http.createServer((req, res) => {
    const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => relay.listen(0, '127.0.0.1', () => resolve(relay)));
}

/** A line of this run's own verdict, after the suite's output. */
const say = (line: string) => process.stdout.write(`${line}\n`);

/** A revision's baseline: scenarios that do not apply, and single checks that do not inside scenarios that do. */
interface Baseline {
  server: string[];
  checks?: Record<string, string[]>;
}

/** What the file's `stdio` part changes for `ops mcp`: more that does not apply, and `/mcp`'s exclusions that do. */
interface StdioBaseline extends Partial<Baseline> {
  applies?: string[];
}

/** The file's baseline for `/mcp`, changed by its `stdio` part for `ops mcp`. */
async function baselineFor(revision: string, transport: Transport): Promise<Baseline> {
  const file = parse(await readFile(path.join(HERE, `expected-failures-${revision}.yaml`), 'utf8')) as Baseline & { stdio?: StdioBaseline };
  if (transport === 'http' || !file.stdio) return { server: file.server, checks: file.checks ?? {} };
  const { server = [], checks: stdioChecks = {}, applies = [] } = file.stdio;
  const checks: Record<string, string[]> = { ...file.checks };
  for (const [scenario, ids] of Object.entries(stdioChecks)) checks[scenario] = [...(checks[scenario] ?? []), ...ids];
  return { server: [...file.server.filter((scenario) => !applies.includes(scenario)), ...server], checks };
}

/** One check of a scenario as the suite writes it to its output folder. */
interface CheckResult {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/**
 * Runs one revision's requirement set with the whole of its baseline told to the
 * suite, then holds the scenarios of `checks` to every check but the listed
 * ones. Resolves with the number of problems, having printed the suite's output.
 */
async function suite(node22: string, conformance: string, url: string, revision: string, transport: Transport, work: string): Promise<number> {
  const baseline = await baselineFor(revision, transport);
  const checks = baseline.checks ?? {};
  const run = `${revision}-${transport}`;
  const told = path.join(work, `baseline-${run}.yaml`);
  await writeFile(told, JSON.stringify({ server: [...baseline.server, ...Object.keys(checks)] }));
  const output = path.join(work, `results-${run}`);
  const args = [conformance, 'server', '--url', url, '--requirements', revision, '--expected-failures', told, '-o', output];
  const code = await new Promise<number>((resolve) => {
    execFile(node22, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      process.stdout.write(`=== MCP conformance, requirements ${revision}, ${transport === 'http' ? '/mcp' : 'ops mcp (stdio)'}\n${stdout}${stderr}`);
      resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0);
    });
  });
  let problems = code === 0 ? 0 : 1;
  for (const [scenario, allowed] of Object.entries(checks)) {
    const results = await scenarioChecks(output, scenario);
    if (results === null) {
      say(`✗ ${scenario}: the suite wrote no results for it (${run})`);
      problems++;
      continue;
    }
    const failing = results.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    const unexpected = failing.filter((check) => !allowed.includes(check.id));
    const nowPassing = allowed.filter((id) => !failing.some((check) => check.id === id));
    for (const check of unexpected) say(`✗ ${scenario} / ${check.id}: ${check.status} ${check.errorMessage ?? ''} (not in the baseline)`);
    for (const id of nowPassing) say(`✗ ${scenario} / ${id}: listed as not applicable, but it no longer fails — take it out of the baseline`);
    problems += unexpected.length + nowPassing.length;
    if (unexpected.length === 0 && nowPassing.length === 0) {
      say(`✓ ${scenario}: ${results.length - failing.length} checks pass; the ${failing.length} failing are the baseline's (${run})`);
    }
  }
  return problems;
}

/** The checks of SCENARIO from the suite's output folder (`server-<scenario>-<time>/checks.json`), or null. */
async function scenarioChecks(output: string, scenario: string): Promise<CheckResult[] | null> {
  const folder = (await readdir(output).catch(() => [])).find((name) => name.startsWith(`server-${scenario}-`) && /^\d/.test(name.slice(`server-${scenario}-`.length)));
  if (!folder) return null;
  return JSON.parse(await readFile(path.join(output, folder, 'checks.json'), 'utf8')) as CheckResult[];
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-conformance-'));
const results = await mkdtemp(path.join(os.tmpdir(), 'aion-conformance-results-'));
const [node22, conformance] = await Promise.all([installed('node22'), installed('conformance')]);
const server = await spawnServer(['--demo', '--data', dataDir]);
let failed = 0;
try {
  const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
  const relay = await tokenRelay(server.url, tokens.ada ?? '');
  const stdio = await startStdioRelay(server.url, tokens.ada ?? '', say);
  const urls: Record<Transport, string> = { http: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/mcp`, stdio: stdio.url };
  const only = process.env.AION_CONFORMANCE_ONLY; // e.g. "2026-07-28-stdio": one run, while working on it
  for (const revision of REVISIONS) {
    for (const transport of TRANSPORTS) {
      if (only && only !== `${revision}-${transport}`) continue;
      failed += await suite(node22, conformance, urls[transport], revision, transport, results);
    }
  }
  relay.close();
  await stdio.close();
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (!process.env.AION_CONFORMANCE_KEEP) await rm(results, { recursive: true, force: true });
  else say(`results kept in ${results}`);
}
process.exitCode = failed === 0 ? 0 : 1;
