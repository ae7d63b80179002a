// An agent's CPU time is its whole tree's (src/acp/cpu-time): a descendant's
// while it runs, and, once it exited and was reaped, in its parent's
// children's time, so a turn cannot hide its work in processes that end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStat, treeCpuSeconds } from '../../src/acp/cpu-time.js';
import { waitFor } from '../helpers/wait.js';

/** Spends `ms` of its own CPU time, however loaded the machine is. */
const busy = (ms: number) => `const start = process.cpuUsage().user; while (process.cpuUsage().user - start < ${ms * 1000});`;
const started: number[] = [];

afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

describe('the CPU time of a process tree', () => {
  it('counts a grandchild while it runs and after it exited', async () => {
    // sh → sh → node: the busy node is a grandchild; its parent waits for it, then the tree idles.
    const root = spawn('sh', ['-c', `sh -c '${process.execPath} -e "${busy(800)}" & echo $!; wait'; sleep 60`], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    started.push(root.pid ?? -1);
    const grandchild = await new Promise<number>((resolve) => root.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    await waitFor(async () => ((await treeCpuSeconds(root.pid ?? -1)) ?? 0) > 0.3, 30_000);
    await waitFor(() => !existsSync(`/proc/${grandchild}`), 30_000);
    // Reaped: its 0.8 s are in the middle shell's children's time, and that shell's (also gone) in the root's.
    expect(await treeCpuSeconds(root.pid ?? -1)).toBeGreaterThanOrEqual(0.75);
  });

  it('is null for a process that is gone', async () => {
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    expect(await treeCpuSeconds(gone.pid ?? -1)).toBeNull();
  });

  it('reads a command name with spaces and parentheses', () => {
    expect(parseStat('42 (a (b) c) S 7 42 42 0 -1 4194560 100 0 0 0 150 25 10 5 20 0 1 0 100 0 0')).toEqual({ ppid: 7, ticks: 190 });
  });
});
