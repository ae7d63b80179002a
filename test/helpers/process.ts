// `ops serve` as its own process, the way an operator runs it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { OPS_BIN } from './paths.js';

export interface ServerProcess {
  url: string;
  /** Everything it printed on stdout, line by line. */
  stdout: string[];
  stderr: string[];
  child: ChildProcess;
  /** SIGTERM, then wait for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The servers spawned since this test file began, stopped or not: when one of
 * its tests fails, server-logs.ts prints what each wrote on stderr (a 500's
 * cause is in its server's log, not in the test's output).
 */
export const spawnedServers = new Set<ServerProcess>();

/** `as`: run it as this user (a root test run trying a server of a regular user). */
export async function spawnServer(args: string[], env: Record<string, string> = {}, as?: { uid: number; gid: number }): Promise<ServerProcess> {
  // The node flags `ops` itself runs with (its shebang, and `npm start`): see docs/decisions.md.
  const child = spawn(process.execPath, ['--max-semi-space-size=2', OPS_BIN, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { ...process.env, AION_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        stdout.push(line);
        const match = /^listening on (https?:\/\/\S+)$/.exec(line);
        if (match?.[1]) resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    void exited.then((code) => reject(new Error(`ops serve exited with ${code}: ${stderr.join('\n')}`)));
  });
  const server: ServerProcess = {
    url,
    stdout,
    stderr,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  spawnedServers.add(server);
  return server;
}

/** Whether a process of this pid still runs (signal 0 only asks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process groups a server's children lead: its agents, which a SIGKILL of the server leaves behind. */
export function childGroups(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,pgid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // No children: ps says so with its exit status.
  }
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([child, group]) => child !== undefined && child > 0 && child === group)
    .map(([child]) => child as number);
}

export function killGroups(groups: number[]): void {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** A process's state letter from /proc (`Z` a zombie), or null when it is gone. */
export function stateOf(pid: number): string | null {
  const stat = readOr(`/proc/${pid}/stat`);
  return stat === '' ? null : (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null);
}

/** Every live process below `pid` (children, their children…), zombies left out. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const stat = readOr(`/proc/${child}/stat`);
    if (stat === '') continue;
    // `pid (comm) state ppid …`: the name may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  for (let queue = [...(children.get(pid) ?? [])], next = queue.shift(); next !== undefined; next = queue.shift()) {
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** A file's text, or '' when it cannot be read (a process that is gone). */
export function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
