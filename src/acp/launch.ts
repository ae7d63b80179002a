// How an agent process is started: its own command with none of the server's
// environment but PATH, a HOME and working folder in its scratch folder, and
// the variables its configuration names — inside the OS sandbox (./sandbox),
// which hides the data folder and the server's processes, keeps its writes in
// the scratch folder and its network to Aion and its `allow_hosts`. Where no
// sandbox can start, an agent that requires one is unavailable with the
// sentence; only the admin's `"sandbox": false` (and the demo agent, our own
// code) runs without.
import type { AgentConfig } from '../config.js';
import type { AgentFolders, AgentLaunch } from './agent-process.js';
import { AgentStartError } from './start-error.js';
import { messageOf } from '../errors.js';

export interface LaunchPlan {
  launch: AgentLaunch;
  /** Frees what the sandbox holds for this process (its allow list). */
  dispose: () => Promise<void>;
}

let problem: Promise<string | null> | undefined;
/** The hosts of this process that may sandbox an agent: the library runs while one does. */
let holders = 0;

/**
 * A host that may sandbox agents holds the sandbox library from its start
 * (which also starts the library, so no message waits for it) until its stop;
 * the returned function lets go, and the last to let go stops the library.
 */
export function holdSandbox(): () => Promise<void> {
  holders += 1;
  void sandboxProblemHere();
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    holders -= 1;
    if (holders > 0) return;
    problem = undefined;
    await import('./sandbox.js').then(({ stopSandboxes }) => stopSandboxes(), () => undefined);
  };
}

/** Why no sandbox can start on this machine (what to install), or null; asked once while the library runs. */
function sandboxProblemHere(): Promise<string | null> {
  problem ??= import('./sandbox.js').then(
    ({ sandboxProblem }) => sandboxProblem(),
    (error: unknown) => `the sandbox library did not load: ${messageOf(error)}`,
  );
  return problem;
}

/** The sentence the log says once at start for an agent that runs without a sandbox where it would have one. */
export async function unsandboxedNotice(agent: AgentConfig): Promise<string | null> {
  if (agent.sandbox !== 'preferred') return null;
  const why = await sandboxProblemHere();
  return why === null ? null : `agent ${agent.name} runs without a sandbox here: ${why}`;
}

/** Whether the agent runs sandboxed here, and the sentence that makes it unavailable when it needs a sandbox none can give. */
export async function sandboxSentence(agent: AgentConfig): Promise<{ refused: string | null; sandboxed: boolean }> {
  if (agent.sandbox === 'off') return { refused: null, sandboxed: false };
  const why = await sandboxProblemHere();
  if (why === null) return { refused: null, sandboxed: true };
  return agent.sandbox === 'preferred' ? { refused: null, sandboxed: false } : { refused: `its sandbox cannot start: ${why}`, sandboxed: true };
}

export async function launchOf(
  agent: AgentConfig,
  folders: AgentFolders & { root: string },
  server: { dataDir: string; serverUrl: string; path: string; uidBase: number },
): Promise<LaunchPlan> {
  const env = { ...agent.env, PATH: server.path, HOME: folders.home, TMPDIR: folders.home };
  const { refused, sandboxed } = await sandboxSentence(agent);
  if (refused !== null) throw new AgentStartError(refused);
  if (!sandboxed) return { launch: { command: agent.command, args: agent.args, env, cwd: folders.work }, dispose: async () => {} };
  const { sandboxed: wrap } = await import('./sandbox.js');
  const command = await wrap(agent.command, agent.args, env, {
    scratch: folders.root,
    denyRead: [server.dataDir],
    allowHosts: agent.allowHosts,
    aionUrl: server.serverUrl,
    uidBase: server.uidBase,
  });
  return {
    launch: { command: command.command, args: command.args, env: command.env, cwd: folders.work, uid: command.uid, gid: command.gid },
    dispose: () => command.dispose(),
  };
}
