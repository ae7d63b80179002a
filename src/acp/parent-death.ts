// The sandbox library spawns its host-side socat bridge as a plain child, so
// a server killed outright (SIGKILL, the OOM killer) would leave it running.
// Started through `setpriv --pdeathsig TERM` (util-linux) the bridge is told
// by the kernel when the server dies, and on SIGTERM socat removes its socket.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface BoundCommand {
  /** The executable to give the library in place of the command. */
  path: string;
  /** Removes the wrapper: call once the library has spawned what it needed. */
  remove(): Promise<void>;
}

/**
 * A wrapper that runs `command` with its arguments, ended by SIGTERM when the
 * process that spawned it dies; `command` itself where `setpriv` is missing.
 */
export async function boundToParent(command: string, setpriv: string | null): Promise<BoundCommand> {
  if (!setpriv) return { path: command, remove: async () => {} };
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aion-bridge-'));
  const wrapper = path.join(folder, path.basename(command));
  await writeFile(wrapper, `#!/bin/sh\nexec ${quote(setpriv)} --pdeathsig TERM -- ${quote(command)} "$@"\n`, { mode: 0o700 });
  await chmod(wrapper, 0o700);
  return { path: wrapper, remove: () => rm(folder, { recursive: true, force: true }) };
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
