// How an agent process is started: its own command with none of the server's
// environment but PATH, a HOME and working folder in its scratch folder, and
// the variables its configuration names — inside the OS sandbox (./sandbox),
// which hides the data folder and the server's processes, keeps its writes in
// the scratch folder and its network to Aion and its `allow_hosts`. Where no
// sandbox can start, an agent that requires one is unavailable with the
// sentence; only the admin's `"sandbox": false` (and the demo agent, our own
// code) runs without — and, where the server is root, only when the admin
// allows agents to run as root (AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT).
import type { AgentConfig } from '../config.js';
import type { AgentLimits } from './agent-limits.js';
import type { AgentFolders, AgentLaunch } from './agent-process.js';
import { newRunMark, RUN_VARIABLE } from './marked-processes.js';
import { AgentStartError } from './start-error.js';
import { OPENCODE_PERMISSION } from './agent-home.js';
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
export async function unsandboxedNotice(agent: AgentConfig, unsandboxedAsRoot: boolean): Promise<string | null> {
  if (agent.sandbox !== 'preferred') return null;
  const { refused, sandboxed } = await sandboxSentence(agent, unsandboxedAsRoot);
  if (sandboxed) return null;
  return refused === null ? `agent ${agent.name} runs without a sandbox here: ${await sandboxProblemHere()}` : `agent ${agent.name} is not available: ${refused}`;
}

/** Whether the agent runs sandboxed here, and the sentence that makes it unavailable when it needs a sandbox none can give. */
export async function sandboxSentence(agent: AgentConfig, unsandboxedAsRoot: boolean): Promise<{ refused: string | null; sandboxed: boolean }> {
  const why = agent.sandbox === 'off' ? null : await sandboxProblemHere();
  if (agent.sandbox !== 'off' && why === null) return { refused: null, sandboxed: true };
  if (agent.sandbox === 'required') return { refused: `its sandbox cannot start: ${why}`, sandboxed: true };
  // Without a sandbox it would run as the server's user: never root, unless the admin says so.
  if (process.geteuid?.() === 0 && !unsandboxedAsRoot) {
    const unsandboxed = agent.sandbox === 'off' ? 'it is configured with "sandbox": false' : `its sandbox cannot start here (${why})`;
    return {
      refused: `${unsandboxed}, and without one it would run as root, the server's user: run the server as a regular user, or set AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT=1 to allow it`,
      sandboxed: false,
    };
  }
  return { refused: null, sandboxed: false };
}

export async function launchOf(
  agent: AgentConfig,
  folders: AgentFolders & { root: string },
  server: { dataDir: string; serverUrl: string; path: string; unsandboxedAsRoot: boolean; uidBase: number; limits: AgentLimits },
): Promise<LaunchPlan> {
  const { refused, sandboxed } = await sandboxSentence(agent, server.unsandboxedAsRoot);
  if (refused !== null) throw new AgentStartError(refused);
  const env: Record<string, string> = { ...agent.env, PATH: server.path, HOME: folders.home, TMPDIR: folders.home };
  // OpenCode's and Kilo's permission rules over any configuration they are given (variables another agent never reads, like the home files).
  env.OPENCODE_PERMISSION = JSON.stringify(OPENCODE_PERMISSION);
  env.KILO_PERMISSION = env.OPENCODE_PERMISSION;
  // Set where it runs in Aion's sandbox (the demo agent acts on its host only there): the server's word, never the configuration's.
  delete env.AION_SANDBOXED;
  delete env[RUN_VARIABLE];
  if (sandboxed) env.AION_SANDBOXED = '1';
  // Its processes carry a mark Stop finds them by. Unsandboxed, no pid namespace ends what it starts. Sandboxed, one
  // stopped while bubblewrap is still setting up can leave the namespace's first process (bwrap's, in a session of its
  // own) running with the relays it started, outside the group Stop ends (measured: Copilot, Qwen Code, Cline, each
  // on a Stop 150 ms after a first message).
  const mark = newRunMark();
  env[RUN_VARIABLE] = mark;
  if (!sandboxed) return { launch: { command: agent.command, args: agent.args, env, cwd: folders.work, mark }, dispose: async () => {} };
  const { sandboxed: wrap } = await import('./sandbox.js');
  const command = await wrap(agent.command, agent.args, env, {
    scratch: folders.root,
    denyRead: [server.dataDir],
    allowHosts: agent.allowHosts,
    aionUrl: server.serverUrl,
    uidBase: server.uidBase,
    limits: server.limits,
  });
  return {
    launch: { command: command.command, args: command.args, env: command.env, cwd: folders.work, uid: command.uid, gid: command.gid, mark },
    dispose: () => command.dispose(),
  };
}
