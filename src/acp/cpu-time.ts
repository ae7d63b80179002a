// CPU time of an agent's whole process tree, read from /proc: the root's and
// every live descendant's own time (utime + stime, all threads), plus the time
// of descendants that have exited, which the kernel adds to their parent's
// cutime + cstime when it reaps them. In a sandbox every process of the agent
// stays a descendant of its bwrap (its pid namespace's init reaps orphans,
// even ones that called setsid or double-forked), so the sum is the sandbox's.
// Not RLIMIT_CPU: it bounds each process alone, for its whole life, and a
// fork starts afresh; a cgroup's cpu.stat would be exact but needs systemd or
// a delegated cgroup, which a server run as a regular user has not.
import { access, readdir, readFile } from 'node:fs/promises';

/** Linux reports times in USER_HZ, 100 a second on every architecture Aion runs on (x64, arm64). */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  ppid: number;
  /** Its own time and its reaped children's, in ticks. */
  ticks: number;
}

/** Seconds of CPU the tree rooted at `root` used so far; null when `root` is gone or there is no /proc. */
export async function treeCpuSeconds(root: number): Promise<number | null> {
  const tree = (await hasChildrenFiles(root)) ? await descendantsOf(root) : await descendantsFromTable(root);
  if (tree === null) return null;
  // A process that ended meanwhile has no file: it is in its parent's cutime, or soon will be.
  const ticks = await Promise.all(tree.map(async (pid) => parseStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))?.ticks ?? 0));
  return ticks.reduce((sum, each) => sum + each, 0) / TICKS_PER_SECOND;
}

/** Whether the kernel lists each task's children (CONFIG_PROC_CHILDREN, on in the usual kernels). */
async function hasChildrenFiles(pid: number): Promise<boolean> {
  return access(`/proc/${pid}/task/${pid}/children`).then(() => true, () => false);
}

/**
 * `root` and its descendants, from each thread's list of the children it
 * started: a few files for an agent's tree, however many processes the
 * machine runs. A child being reparented while read may be missed for one
 * reading; its time is counted at the next.
 */
async function descendantsOf(root: number): Promise<number[] | null> {
  const found: number[] = [];
  let level = [root];
  while (level.length > 0) {
    found.push(...level);
    const next = await Promise.all(
      level.map(async (pid) => {
        const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
        const lists = await Promise.all(tasks.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')));
        return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
      }),
    );
    level = next.flat().filter((pid) => !found.includes(pid));
  }
  return (await readFile(`/proc/${root}/stat`).then(() => true, () => false)) ? found : null;
}

/** The same from every process's parent, where the kernel keeps no children lists. */
async function descendantsFromTable(root: number): Promise<number[] | null> {
  const parents = await parentsOfAll();
  if (!parents.has(root)) return null;
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop() ?? root;
    if (found.includes(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

async function parentsOfAll(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  const entries = await readdir('/proc').catch(() => []);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const times = parseStat(await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => ''));
        if (times) parents.set(Number(entry), times.ppid);
      }),
  );
  return parents;
}

/** `pid (comm) state ppid … utime stime cutime cstime …`: comm may hold spaces and parentheses, so fields count from its last `)`. */
export function parseStat(stat: string): ProcessTimes | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [ppid, utime, stime, cutime, cstime] = [1, 11, 12, 13, 14].map((index) => Number(fields[index]));
  if ([ppid, utime, stime, cutime, cstime].some((value) => value === undefined || !Number.isFinite(value))) return null;
  return { ppid: ppid ?? 0, ticks: (utime ?? 0) + (stime ?? 0) + (cutime ?? 0) + (cstime ?? 0) };
}
