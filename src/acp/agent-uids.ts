// Under a root server each agent process runs as a uid of its own, taken
// from a range no user of the machine has (a uid needs no /etc/passwd entry),
// so no agent can read another's /proc/<pid>/environ, trace it, or signal it,
// and RLIMIT_NPROC counts one agent's processes. The uid is its group id too.
// Picked at random in the range and never one a live process has (another
// instance's agent), so servers on one machine need not share a registry.
import { randomInt } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** Where the range starts unless AION_AGENT_UID_BASE says: above the uids of users and of container ranges. */
export const DEFAULT_AGENT_UID_BASE = 2_000_000_000;
/** How many uids from the base the range holds. */
export const AGENT_UID_COUNT = 1_000_000;
const TRIES = 20;

const taken = new Set<number>();

/** A uid of the range that no agent of this server and no live process has; released by `releaseAgentUid`. */
export async function takeAgentUid(base: number): Promise<number> {
  const busy = await uidsOfLiveProcesses();
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const uid = base + randomInt(AGENT_UID_COUNT);
    if (taken.has(uid) || busy.has(uid)) continue;
    taken.add(uid);
    return uid;
  }
  throw new Error(`no free uid for an agent between ${base} and ${base + AGENT_UID_COUNT - 1}`);
}

export function releaseAgentUid(uid: number): void {
  taken.delete(uid);
}

async function uidsOfLiveProcesses(): Promise<Set<number>> {
  const uids = new Set<number>();
  const entries = await readdir('/proc').catch(() => []);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (pid) => {
        const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
        // `Uid: real effective saved fs`
        for (const uid of /^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/) ?? []) uids.add(Number(uid));
      }),
  );
  return uids;
}
