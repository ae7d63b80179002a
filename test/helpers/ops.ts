// `ops` run in this process: the same command line as the binary, without a
// process of its own (spawning one costs a second or more on a busy machine).
// Tests that need the binary itself spawn it (test/cli/serve.test.ts).
import { runOps } from '../../src/cli/program.js';
import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { readConfig } from '../../src/config.js';

export interface OpsRun {
  code: number;
  stdout: string[];
  stderr: string[];
}

export async function ops(args: string[], env: Record<string, string> = {}): Promise<OpsRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runOps(args, {
    out: (text) => stdout.push(...text.split('\n')),
    err: (text) => stderr.push(...text.split('\n')),
    env: { PATH: process.env.PATH, ...env },
  });
  return { code, stdout, stderr };
}

/** A server on an existing data folder, with what it printed at start. */
export async function serveFolder(
  dataDir: string,
  options: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<RunningServer & { printed: string[] }> {
  const printed: string[] = [];
  const config = readConfig(
    { host: '127.0.0.1', port: 0, data: dataDir, demo: options.demo ?? false },
    { AION_LOG_LEVEL: 'warn', ...options.env },
  );
  const server = await startServer(config, (line) => printed.push(line));
  return { ...server, printed };
}
