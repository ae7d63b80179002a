// Measuring tools for `npm run bench`: latency at concurrency 1 with
// sub-millisecond precision, throughput at concurrency N with autocannon,
// and the table that prints each figure beside its DESIGN.md §11 target.
import http from 'node:http';
import autocannon from 'autocannon';

export interface Target {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A body, or a maker of a fresh one per request (writes that must not repeat). */
  body?: string | (() => string);
  /** The answer is a 304, not an error. */
  notModified?: boolean;
}

const bodyOf = (target: Target) => (typeof target.body === 'function' ? target.body() : target.body);

export interface Latency {
  p50: number;
  p99: number;
  count: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

/** Sequential requests over one keep-alive connection; latencies in ms. */
export async function latencyAtOne(base: string, target: Target, requests: number): Promise<Latency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(target.path, base);
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(url, { method: target.method ?? 'GET', headers: target.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`${target.path} answered ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      });
      req.on('error', reject);
      req.end(bodyOf(target));
    });
  for (let i = 0; i < Math.min(200, requests / 5); i++) await once(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) samples.push(await once());
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), count: samples.length };
}

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon at `connections` for `seconds`; its latencies have 1 ms resolution. */
export async function throughputAt(base: string, target: Target, connections: number, seconds: number): Promise<Throughput> {
  const result = await autocannon({
    url: new URL(target.path, base).toString(),
    method: (target.method ?? 'GET') as 'GET',
    headers: target.headers,
    ...(typeof target.body === 'function'
      ? { requests: [{ setupRequest: (request: object) => ({ ...request, body: bodyOf(target) }) }] }
      : { body: target.body }),
    connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx - (target.notModified ? result['3xx'] : 0),
  };
}

export interface Row {
  measure: string;
  figure: string;
  target: string;
  /** null: no target to meet, only a figure to read. */
  met: boolean | null;
}

export function printTable(rows: Row[]): void {
  const header: Row = { measure: 'measure', figure: 'figure', target: 'target (DESIGN.md §11)', met: null };
  const all = [header, ...rows];
  const width = (key: 'measure' | 'figure' | 'target') => Math.max(...all.map((r) => r[key].length));
  const [m, f, t] = [width('measure'), width('figure'), width('target')];
  const line = (r: Row, mark: string) => `| ${r.measure.padEnd(m)} | ${r.figure.padStart(f)} | ${r.target.padEnd(t)} | ${mark.padEnd(4)} |`;
  console.log(line(header, 'met'));
  console.log(`|${'-'.repeat(m + 2)}|${'-'.repeat(f + 2)}|${'-'.repeat(t + 2)}|------|`);
  for (const row of rows) console.log(line(row, row.met === null ? '' : row.met ? 'yes' : 'NO'));
}

export const ms = (value: number) => `${value.toFixed(3)} ms`;
