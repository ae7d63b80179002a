// The official MCP conformance suite's server scenarios against `/mcp`, for
// each revision Aion speaks (2025-11-25, 2026-07-28), from the pinned suite on
// Node 22 (which it needs), both installed into the test agents' cache
// (test/acp/real/install.ts). .ci/run calls it after the build. The suite
// sends no token, so a loopback relay in front of the server adds ada's.
// Scenarios that do not apply are each revision's expected failures (beside
// this file, README "MCP conformance"); any other failure fails the run.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { installed } from '../../acp/real/install.js';
import { spawnServer } from '../../helpers/process.js';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
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

/** Runs one revision's requirement set; resolves with its exit code, having printed its output. */
function suite(node22: string, conformance: string, url: string, revision: string): Promise<number> {
  const args = [conformance, 'server', '--url', url, '--requirements', revision, '--expected-failures', path.join(HERE, `expected-failures-${revision}.yaml`)];
  return new Promise((resolve) => {
    execFile(node22, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      process.stdout.write(`=== MCP conformance, requirements ${revision}\n${stdout}${stderr}`);
      resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0);
    });
  });
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-conformance-'));
const [node22, conformance] = await Promise.all([installed('node22'), installed('conformance')]);
const server = await spawnServer(['--demo', '--data', dataDir]);
let failed = 0;
try {
  const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
  const relay = await tokenRelay(server.url, tokens.ada ?? '');
  const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/mcp`;
  for (const revision of REVISIONS) if ((await suite(node22, conformance, url, revision)) !== 0) failed++;
  relay.close();
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
