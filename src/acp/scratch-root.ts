// Where the agents' scratch folders go: a folder of this server in the
// system's temporary folder, outside the data folder, which no agent may
// read. 0711: an agent running as a uid of its own (a root server's) may pass
// through to its own folder, and list none of the others. It names the
// process that made it, so the next server of the same user removes the
// folder of one that was killed before it could (its agents' tokens and
// files are in it), and the socket the sandbox library's proxy left behind
// (`srt-mux-<pid>-<n>.sock`, named by its process).
import { readdir, readFile, rm, lstat, chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'aion-agents-';
const OWNER = 'owner';

export async function makeScratchRoot(): Promise<string> {
  const self = await startTimeOf(process.pid);
  // Without /proc (not Linux) no process can be told gone: nothing is removed.
  if (self !== null) await removeStale();
  const root = await mkdtemp(path.join(os.tmpdir(), PREFIX));
  await chmod(root, 0o711);
  if (self !== null) await writeFile(path.join(root, OWNER), `${process.pid} ${self}\n`, { mode: 0o600 });
  return root;
}

/** The scratch roots (and proxy sockets) of this user whose server is gone (its pid free, or reused by a later process). */
async function removeStale(): Promise<void> {
  const tmp = os.tmpdir();
  const uid = process.geteuid?.();
  for (const name of await readdir(tmp).catch(() => [])) {
    const socket = /^srt-mux-(\d+)-[0-9a-z]+\.sock$/.exec(name);
    if (!name.startsWith(PREFIX) && !socket) continue;
    const folder = path.join(tmp, name);
    const info = await lstat(folder).catch(() => null);
    if (!info || info.uid !== uid) continue;
    if (socket) {
      if (info.isSocket() && (await startTimeOf(Number(socket[1]))) === null) await rm(folder, { force: true }).catch(() => undefined);
      continue;
    }
    if (!info.isDirectory()) continue;
    const owner = await readFile(path.join(folder, OWNER), 'utf8').catch(() => null);
    // Without the file: still being made, or not ours to judge.
    const [pid, started] = owner?.trim().split(' ').map(Number) ?? [];
    if (pid === undefined || started === undefined || !Number.isInteger(pid)) continue;
    if ((await startTimeOf(pid)) !== started) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), so a reused pid is not taken for it; null when gone. */
async function startTimeOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // `pid (comm) state …`: the name may hold spaces and parentheses; field 22 is the 20th after it.
  return stat === null ? null : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}
