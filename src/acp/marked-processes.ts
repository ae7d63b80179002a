// An agent run without a sandbox has no pid namespace to end with it: a
// process it started that left its process group (setsid, a double fork, a
// tool's daemon) would outlive Stop and the server. Each such agent is started
// with a variable of its own (`AION_AGENT_RUN`, an unguessable value) that
// every process it starts inherits; stopping it ends every process whose
// environment carries it. Read from /proc/<pid>/environ, which the server's
// user reads for its own processes (and root for all). Not a containment: a
// process that clears its environment, or runs a setuid program, is missed.
// That is what the sandbox is for; an admin who set `"sandbox": false` trusts
// the agent, and this ends what it leaves behind by accident.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The variable that marks an unsandboxed agent's processes. */
export const RUN_VARIABLE = 'AION_AGENT_RUN';
/** A process forking while it is ended is looked for again, this many times at most. */
const ROUNDS = 10;

/** A fresh mark for one agent process and all it starts. */
export function newRunMark(): string {
  return randomBytes(16).toString('hex');
}

/** SIGKILL to every process marked `mark`, until none is left (or ROUNDS passed); resolves to how many were signalled. */
export async function endMarked(mark: string): Promise<number> {
  const entry = `${RUN_VARIABLE}=${mark}`;
  let ended = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const marked = await markedProcesses(entry);
    if (marked.length === 0) break;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        ended += 1;
      } catch {
        // Gone already.
      }
    }
  }
  return ended;
}

async function markedProcesses(entry: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => []);
  const found = await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .map(async (name) => {
        const environ = await readFile(`/proc/${name}/environ`).catch(() => null);
        return environ !== null && environ.toString('utf8').split('\0').includes(entry) ? Number(name) : null;
      }),
  );
  return found.filter((pid) => pid !== null);
}
