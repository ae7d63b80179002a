// The OS sandbox an agent process runs in, built on @anthropic-ai/sandbox-runtime
// (Linux: bubblewrap, a seccomp helper, and a filtering proxy reached through
// socat). One library session serves every agent of this process: it is a
// process-wide singleton whose proxy starts once; each agent gets its own
// filesystem rules per wrap and its own network allow list, registered under
// an unguessable id that only its sandbox's proxy credentials carry.
//
// Inside, an agent
// - reads only what it needs (./sandbox-reads: the system, its installation),
//   never the denied folders (the data folder) nor its sibling scratch
//   folders, even inside an allowed one; writes only its scratch folder (a
//   tmpfs of its size, seeded from the server's copy) and its own /tmp;
// - runs within its limits (./agent-limits);
// - has its own pid namespace (the server's processes and /proc/<pid>/environ
//   unseen), no new privileges, and, where the server runs as root, runs as
//   a uid of its own (./agent-uids; bubblewrap's own user namespace would map
//   it to the real root, the owner of every root file, so the uid is dropped
//   before bwrap runs), so agents cannot read or trace one another;
// - has its own network namespace with only loopback: it reaches the world
//   through the proxy (HTTP_PROXY & co. set by the library) which lets through
//   Aion's URL and the agent's allow_hosts only. Loopback targets (Aion, a
//   local model API) get a relay on the same port inside the sandbox that
//   tunnels through the proxy, so clients that ignore proxy variables (Node's
//   fetch) reach them at their usual URL.
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, chmod, lchown, lstat, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { FilesystemPathEntry, SandboxManager, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { messageOf } from '../errors.js';
import { DEFAULT_AGENT_LIMITS, type AgentLimits } from './agent-limits.js';
import { DEFAULT_AGENT_UID_BASE, releaseAgentUid, takeAgentUid } from './agent-uids.js';
import { boundToParent } from './parent-death.js';
import { carvedOut, isAtOrUnder, onPath, readablePaths } from './sandbox-reads.js';
import { OPS_MAIN } from '../config.js';

export interface SandboxSpec {
  /** The agent's own folder, outside the data folder: HOME and cwd are inside; the only writable place. Its parent is hidden from the agent (it holds the other agents' folders). */
  scratch: string;
  /** Folders (or files) the agent must not read, e.g. the data folder. */
  denyRead: string[];
  /** Hosts it may reach besides Aion: `api.anthropic.com`, `*.example.com`, `127.0.0.1:8181` (a loopback host needs its port). */
  allowHosts: string[];
  /** Aion's own base URL, e.g. http://127.0.0.1:8080 (its /mcp). */
  aionUrl: string;
  /** Where the uids of a root server's agents start (AION_AGENT_UID_BASE). */
  uidBase: number;
  /** What the agent may use (./agent-limits). */
  limits: AgentLimits;
}

export interface SandboxedCommand {
  command: string;
  args: string[];
  /** The environment to spawn with: the agent's own (the sandbox adds its proxy variables inside). */
  env: Record<string, string>;
  /** Spawn as this user (set where the server runs as root). */
  uid?: number;
  gid?: number;
  /** Releases what the sandbox holds for this process (its network allow list, the library's mount bookkeeping); call once it has exited. */
  dispose(): Promise<void>;
}

/** Where the library's own relays listen inside every sandbox (its HTTP and SOCKS proxies). */
const LIBRARY_PROXY_PORTS = new Set([3128, 1080]);
const PROXY_PORT = 3128;
/** How long the sandbox that sandboxProblem() starts may take. */
const PROBE_TIMEOUT_MS = 10_000;
const INSTALL = 'install bubblewrap, socat and ripgrep (Debian/Ubuntu: apt-get install bubblewrap socat ripgrep)';

interface Runtime {
  manager: typeof SandboxManager;
  bash: string;
  bwrap: string;
  socat: string;
  /** Copies the server's scratch folder into the sandbox's (found on the server's PATH: the agent's may lack it). */
  cp: string;
  /** Whether the server runs as root: then each agent runs as a uid of its own, else as the server's user. */
  root: boolean;
  /** Removes the signal handlers this start added. */
  release(): void;
}

class SandboxUnavailable extends Error {}

let runtime: Promise<Runtime> | undefined;

/** null when sandboxes can start here, else the sentence saying what to install or enable. */
export async function sandboxProblem(): Promise<string | null> {
  try {
    await started();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/** The command that runs `command args` with env `env` inside a sandbox per `spec`. */
export async function sandboxed(command: string, args: string[], env: Record<string, string>, spec: SandboxSpec): Promise<SandboxedCommand> {
  return wrap(await started(), command, args, env, spec);
}

async function wrap(runtime: Runtime, command: string, args: string[], env: Record<string, string>, spec: SandboxSpec): Promise<SandboxedCommand> {
  if (!runtime.root) return wrapAs(runtime, null, command, args, env, spec);
  const uid = await takeAgentUid(spec.uidBase);
  try {
    const wrapped = await wrapAs(runtime, { uid, gid: uid }, command, args, env, spec);
    return { ...wrapped, dispose: () => wrapped.dispose().finally(() => releaseAgentUid(uid)) };
  } catch (error) {
    releaseAgentUid(uid);
    throw error;
  }
}

async function wrapAs(
  { manager, bash, bwrap, socat, cp }: Runtime,
  user: { uid: number; gid: number } | null,
  command: string,
  args: string[],
  env: Record<string, string>,
  spec: SandboxSpec,
): Promise<SandboxedCommand> {
  const scratch = path.resolve(spec.scratch);
  const denyRead = spec.denyRead.map((entry) => path.resolve(entry));
  const inside = denyRead.find((denied) => isAtOrUnder(scratch, denied));
  if (inside) throw new Error(`the scratch folder ${scratch} must be outside the denied folder ${inside}`);
  if (path.dirname(scratch) === scratch || path.dirname(scratch) === '/') throw new Error(`the scratch folder ${scratch} needs a parent folder of its own (its siblings are hidden from the agent)`);

  const aion = new URL(spec.aionUrl);
  const aionHost = `${aion.hostname}:${aion.port || (aion.protocol === 'https:' ? '443' : '80')}`;
  const allowed = [aionHost, ...spec.allowHosts];
  const relays = loopbackRelays(allowed);
  // The relay listens on the same port inside the sandbox, as a user without privileges.
  const clash = relays.find((relay) => LIBRARY_PROXY_PORTS.has(relay.port) || relay.port < 1024);
  if (clash) {
    const why = clash.port < 1024 ? 'a port below 1024 cannot be listened on without privileges' : "its port is where the sandbox's own proxy listens";
    throw new Error(`${clash.host}:${clash.port} cannot be reached from the sandbox: ${why}; use another port`);
  }

  const tmp = env.TMPDIR ?? path.join(scratch, 'tmp');
  if (!env.TMPDIR) await mkdir(tmp, { recursive: true, mode: 0o700 });
  if (user) {
    await reachable(scratch, user, `the scratch folder ${scratch}`);
    const found = await onPath(command, env.PATH ?? '');
    if (found) await reachable(found, user, `the agent's command ${found}`);
    // The agent writes its own folder as the uid it runs as.
    await chownTree(scratch, user);
  }

  // Hidden too: the scratch's siblings (other agents' folders: same uid), and
  // the server's home folders the library would otherwise keep writable.
  const hidden = [...denyRead, path.dirname(scratch), ...(await existing(convenienceDirs()))];
  // Reads by allow-list: the root denied, what an agent needs allowed back; the
  // hidden folders stay denied inside an allowed one (a data folder in a checkout).
  // The proxy's sockets are bound in before the read rules' tmpfs over their folder: bound back.
  const sockets = [manager.getLinuxHttpSocketPath(), manager.getLinuxSocksSocketPath()].filter((socket) => socket !== undefined);
  const readable = [...(await carvedOut(await readablePaths(command, args, env.PATH ?? '', [process.execPath, OPS_MAIN]), hidden)), ...sockets];
  const filesystem = {
    denyRead: literal(['/', ...(user ? await Promise.all(hidden.map((entry) => firstUnreachable(entry, user))) : hidden)]),
    // bwrap runs as the agent's uid: what it cannot reach it cannot mount (and could not read).
    allowRead: literal(user ? await reachableOnly(readable, user) : readable),
    allowWrite: literal([scratch]),
    // Kept writable by the library whatever the rules; shared by every sandbox.
    denyWrite: literal(await existing(['/tmp/claude'])),
  };

  const commandId = randomBytes(16).toString('base64url');
  manager.registerCommandNetworkLists(commandId, { allowedDomains: allowed });
  let wrapped: string;
  try {
    wrapped = await manager.wrapWithSandbox(innerScript(command, args, { tmp, relays, socat, cp, scratch, limits: spec.limits }), bash, { filesystem }, undefined, { commandId });
  } catch (error) {
    manager.unregisterCommandNetworkLists(commandId);
    throw error;
  }
  let disposed = false;
  return {
    command: bash,
    // The command line (bwrap's arguments hold this sandbox's proxy credentials) in the environment, which only its uid reads.
    args: ['-c', `eval "$${LAUNCHER_VARIABLE}"`],
    env: { ...env, [LAUNCHER_VARIABLE]: launcher(wrapped, bwrap, await boundMounts(scratch, spec.limits)) },
    ...(user ?? {}),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      manager.unregisterCommandNetworkLists(commandId);
      manager.cleanupAfterCommand();
    },
  };
}

/** Stops the library (its proxy and relays), so the process may exit; the next sandbox starts it again. */
export async function stopSandboxes(): Promise<void> {
  const running = await runtime?.catch(() => null);
  runtime = undefined;
  running?.release();
  await running?.manager.reset();
}

function started(): Promise<Runtime> {
  runtime ??= start();
  return runtime;
}

async function start(): Promise<Runtime> {
  if (process.platform !== 'linux') throw new SandboxUnavailable(`the agent sandbox needs Linux with bubblewrap; this is ${process.platform}`);
  const [bwrap, socat, rg, bash, cp] = await Promise.all(['bwrap', 'socat', 'rg', 'bash', 'cp'].map(which));
  const missing = [bwrap ? null : 'bubblewrap', socat ? null : 'socat', rg ? null : 'ripgrep', bash ? null : 'bash', cp ? null : 'cp (coreutils)'].filter(
    (name) => name !== null,
  );
  if (!bwrap || !socat || !rg || !bash || !cp) throw new SandboxUnavailable(`${missing.join(', ')} not found on PATH: ${INSTALL}`);
  const { SandboxManager: manager } = await import('@anthropic-ai/sandbox-runtime');
  const config: SandboxRuntimeConfig = {
    // No host for everyone: each agent's list is registered with its command.
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    bwrapPath: bwrap,
    socatPath: socat,
    ripgrep: { command: rg },
    // The library scans the server's working folder for dangerous files to
    // protect from writes; no agent can write there, so keep the scan short.
    mandatoryDenySearchDepth: 1,
  };
  const deps = await manager.checkDependenciesAsync({ command: rg });
  if (deps.errors.length > 0) throw new SandboxUnavailable(`${deps.errors.join('; ')}: ${INSTALL}`);
  // Without its seccomp helper the library would run agents with Unix sockets open.
  if (deps.warnings.some((warning) => warning.includes('seccomp'))) {
    throw new SandboxUnavailable(`the sandbox library has no seccomp helper for ${process.arch}: run on x64 or arm64`);
  }
  const signals = { SIGINT: handlersOf('SIGINT'), SIGTERM: handlersOf('SIGTERM') };
  // The host-side bridge is spawned once, here: through a wrapper that ends it with the server.
  const bridge = await boundToParent(socat, await which('setpriv'));
  try {
    await manager.initialize({ ...config, socatPath: bridge.path });
  } finally {
    await bridge.remove();
  }
  // What runs inside each sandbox uses socat itself (the sandbox's pid namespace ends with it).
  manager.updateConfig(config);
  // The library cleans up on SIGINT/SIGTERM (its proxy's socat would outlive
  // us) but its handlers swallow the signal, so a process without handlers of
  // its own would not stop. Ours clean up alike, then let the signal do what
  // it would have done. (On a normal exit the library's 'exit' handler does.)
  // Only the library's go: its `once` handlers added meanwhile; the server's
  // own, registered while this started, stay.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of handlersOf(signal)) if (!signals[signal].includes(listener) && 'listener' in listener) process.removeListener(signal, listener);
  }
  try {
    const root = process.geteuid?.() === 0;
    const socket = manager.getLinuxHttpSocketPath();
    // The proxy's socket is made by root; every agent's uid must connect to it (the proxy still asks for that sandbox's credentials).
    if (root && socket) await chmod(socket, 0o666);
    const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
      const handler = () => {
        runtime = undefined;
        void manager.reset();
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      };
      return [signal, handler] as const;
    });
    const ready: Runtime = {
      manager,
      bash,
      bwrap,
      socat,
      cp,
      root,
      release: () => {
        for (const [signal, handler] of handlers) process.removeListener(signal, handler);
      },
    };
    await probe(ready);
    for (const [signal, handler] of handlers) process.once(signal, handler);
    return ready;
  } catch (error) {
    await manager.reset();
    throw error;
  }
}

/** One sandbox started and stopped, so a machine that cannot run them says why before an agent needs one. */
async function probe(ready: Runtime): Promise<void> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'aion-sandbox-probe-'));
  try {
    const scratch = path.join(parent, 'scratch');
    await mkdir(scratch, { mode: 0o700 });
    // mkdtemp makes it 0700: the agent's uid only passes through.
    if (ready.root) await chmod(parent, 0o711);
    const spec = { scratch, denyRead: [], allowHosts: [], aionUrl: 'http://127.0.0.1:65535', uidBase: DEFAULT_AGENT_UID_BASE, limits: DEFAULT_AGENT_LIMITS };
    const sandbox = await wrap(ready, 'true', [], { PATH: '/usr/bin:/bin', HOME: scratch }, spec);
    try {
      const child = spawn(sandbox.command, sandbox.args, { cwd: scratch, env: sandbox.env, uid: sandbox.uid, gid: sandbox.gid, stdio: ['ignore', 'ignore', 'pipe'] });
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
      const code = await new Promise<number | null>((resolve) => {
        child.once('error', () => resolve(null));
        child.once('exit', (exitCode) => resolve(exitCode));
      });
      clearTimeout(timer);
      if (code !== 0) throw new SandboxUnavailable(probeSentence(said.trim() || `it exited with ${code}`, sandbox.uid));
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

function probeSentence(said: string, uid: number | undefined): string {
  const first = said.split('\n').find((line) => line.trim() !== '') ?? said;
  if (uid !== undefined && /Permission denied/i.test(said) && !/uid map/i.test(said)) {
    return `a test sandbox failed to start (${first.slice(0, 200)}): the server runs as root, so agents run as uids of their own like ${uid}, which must be able to read Aion's installation and the programs the sandbox runs`;
  }
  if (/namespace|uid map|setting up uid|Operation not permitted|No permissions/i.test(said)) {
    return `bubblewrap could not create its namespaces (${first.slice(0, 200)}): enable unprivileged user namespaces (sysctl user.max_user_namespaces > 0, kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0), or in a container allow them (e.g. Docker --security-opt seccomp=unconfined --security-opt apparmor=unconfined)`;
  }
  return `a test sandbox failed to start: ${first.slice(0, 300)}`;
}

interface Relay {
  host: string;
  port: number;
}

/** The loopback targets among the allowed hosts, one relay per port: inside, loopback is the sandbox's own. */
function loopbackRelays(allowed: string[]): Relay[] {
  const relays = new Map<number, Relay>();
  for (const entry of allowed) {
    const match = /^(localhost|127(?:\.\d{1,3}){3}):(\d{1,5})$/i.exec(entry);
    if (!match?.[1] || !match[2]) continue;
    const port = Number(match[2]);
    if (!relays.has(port)) relays.set(port, { host: match[1].toLowerCase(), port });
  }
  return [...relays.values()];
}

/**
 * The script the agent is exec'd from, inside the sandbox (bash, under the
 * seccomp filter): TMPDIR back to the agent's (the library sets its own);
 * NO_PROXY to loopback only (the library's also names private ranges, which
 * the sandbox cannot reach but through the proxy); Node's fetch told to use
 * the proxy variables where it can (Node 22.21+, 24); then one socat relay
 * per loopback target, through the proxy with this sandbox's credentials,
 * waited for until it listens (bash builtins only: nothing slower).
 */
function innerScript(
  command: string,
  args: string[],
  { tmp, relays, socat, cp, scratch, limits }: { tmp: string; relays: Relay[]; socat: string; cp: string; scratch: string; limits: AgentLimits },
): string {
  const lines = [
    // Hard limits (the agent cannot raise them), counted from here: the relays below are the agent's too.
    `ulimit -u ${limits.processes}${limits.memoryMiB > 0 ? ` && ulimit -d ${limits.memoryMiB * 1024}` : ''} || exit 126`,
    // The scratch folder is a tmpfs of its size: what the server put there is copied in from the seed (./boundMounts).
    `${quote(cp)} -a ${quote(path.join(scratch, SEED))}/. ${quote(scratch)}/ || exit 126`,
    `export TMPDIR=${quote(tmp)}`,
    'export NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1',
    'export NODE_USE_ENV_PROXY="${NODE_USE_ENV_PROXY:-1}"',
  ];
  if (relays.length > 0) {
    // The proxy's user (percent-encoded base64) and token, as HTTP_PROXY carries them.
    lines.push('_aion_relays=; _aion_auth=${HTTP_PROXY#*://}; _aion_auth=${_aion_auth%@*}; _aion_auth=${_aion_auth//%3D/=}; _aion_auth=${_aion_auth//%2B/+}; _aion_auth=${_aion_auth//%2F//}');
    // socat reads them from a file of the agent's own (printf is a builtin): on its command line every user of the host would see them.
    const auth = quote(path.join(tmp, '.proxy-auth'));
    lines.push(`(umask 077; printf '%s' "$_aion_auth" > ${auth})`);
    for (const { host, port } of relays) {
      const target = `PROXY:127.0.0.1:${host}:${port},proxyport=${PROXY_PORT},proxy-authorization-file=${auth}`;
      lines.push(
        `{ ${quote(socat)} TCP6-LISTEN:${port},ipv6only=0,fork,reuseaddr ${target} || exec ${quote(socat)} TCP4-LISTEN:${port},fork,reuseaddr ${target}; } </dev/null >/dev/null 2>&1 &`,
        '_aion_relays="$_aion_relays $!"',
      );
    }
    const ports = relays.map(({ port }) => port.toString(16).toUpperCase().padStart(4, '0')).join(' ');
    lines.push(
      `_aion_want='${ports}'; _aion_since=`,
      'while [ -n "$_aion_want" ] && kill -0 $_aion_relays 2>/dev/null; do',
      '  _aion_left=',
      '  for _aion_port in $_aion_want; do',
      '    _aion_seen=',
      '    for _aion_table in /proc/net/tcp6 /proc/net/tcp; do',
      '      [ -r "$_aion_table" ] || continue',
      '      while read -r _ _aion_local _ _aion_state _; do',
      '        case "$_aion_local $_aion_state" in *":$_aion_port 0A") _aion_seen=1; break ;; esac',
      '      done < "$_aion_table"',
      '      [ -n "$_aion_seen" ] && break',
      '    done',
      '    [ -n "$_aion_seen" ] || _aion_left="$_aion_left $_aion_port"',
      '  done',
      '  _aion_want=$_aion_left',
      '  read -r _aion_now _ < /proc/uptime || break',
      '  _aion_now=$((10#${_aion_now/./}))',
      '  [ $((_aion_now - ${_aion_since:=$_aion_now})) -lt 100 ] || break',
      'done',
      'unset _aion_auth _aion_relays _aion_want _aion_since _aion_left _aion_port _aion_seen _aion_table _aion_local _aion_state _aion_now',
    );
  }
  lines.push(`exec ${[command, ...args].map(quote).join(' ')}`);
  return lines.join('\n');
}

/** The variable the spawned bash finds the sandbox's command line in. */
const LAUNCHER_VARIABLE = 'AION_SANDBOX_COMMAND';
/** Where, inside the scratch tmpfs, the server's scratch folder is bound read-only to be copied from. */
const SEED = '.seed';
/** The size of every tmpfs the read rules mount over a hidden folder: read-only once mounted, it holds only mount points. */
const HIDDEN_TMPFS_BYTES = 1024 * 1024;
const MIB = 1024 * 1024;

interface BoundMounts {
  /** The size of the sandbox's own /tmp (a tmpfs the read rules mount; writable). */
  tmpBytes: number;
  /** bwrap options after the library's: the sized scratch and /dev/shm. */
  after: string[];
}

/**
 * The scratch folder as a tmpfs of its limit (its folders made, so bwrap can
 * enter the working one, and the server's copy bound read-only to be copied
 * in: nothing the agent writes lands on the host's disk), /dev/shm sized.
 */
async function boundMounts(scratch: string, limits: AgentLimits): Promise<BoundMounts> {
  const folders = (await readdir(scratch, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return {
    tmpBytes: limits.tmpMiB * MIB,
    after: [
      ...['--size', String(limits.scratchMiB * MIB), '--tmpfs', scratch],
      ...folders.flatMap((folder) => ['--dir', path.join(scratch, folder)]),
      ...['--ro-bind', scratch, path.join(scratch, SEED)],
      ...['--size', String(limits.tmpMiB * MIB), '--tmpfs', '/dev/shm'],
    ],
  };
}

/**
 * The script that execs bwrap with its options read from a pipe (`--args`),
 * not on its command line; `exec` so the spawned pid is bwrap's, whose death
 * (--die-with-parent) ends the whole namespace. A profile too long for a
 * command line the library already passes through a file of its own: run as given.
 */
function launcher(wrapped: string, bwrap: string, { tmpBytes, after }: BoundMounts): string {
  return [
    `unset ${LAUNCHER_VARIABLE}`,
    `set -- ${wrapped}`,
    // Its options through the pipe; the command (`-- bash -c …`, nothing secret) where bwrap wants it.
    `if [ "$1" = ${quote(bwrap)} ]; then`,
    '  shift; _aion_options=(); _aion_readonly=()',
    '  while [ $# -gt 0 ] && [ "$1" != -- ]; do',
    // Each tmpfs the read rules mount over a hidden folder is sized, and read-only once the mounts inside it are made; /tmp is the sandbox's own.
    '    if [ "$1" = --tmpfs ]; then',
    `      if [ "$2" = /tmp ]; then _aion_options+=(--size ${tmpBytes}); else _aion_options+=(--size ${HIDDEN_TMPFS_BYTES}); _aion_readonly+=(--remount-ro "$2"); fi`,
    '    fi',
    '    _aion_options+=("$1"); shift',
    '  done',
    `  _aion_options+=(${after.map(quote).join(' ')} "\${_aion_readonly[@]}")`,
    `  exec ${quote(bwrap)} --args 3 "$@" 3< <(printf '%s\\0' "\${_aion_options[@]}")`,
    'fi',
    'exec "$@"',
  ].join('\n');
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Paths as paths, never as the library's glob patterns. */
function literal(paths: string[]): FilesystemPathEntry[] {
  return [...new Set(paths)].map((entry) => ({ path: entry, literal: true as const }));
}


/** The server's home folders the library keeps writable unless they are read-denied. */
function convenienceDirs(): string[] {
  return [path.join(os.homedir(), '.npm', '_logs'), path.join(os.homedir(), '.claude', 'debug')];
}

async function existing(paths: string[]): Promise<string[]> {
  const found = await Promise.all(paths.map((entry) => lstat(entry).then(() => entry, () => null)));
  return found.filter((entry) => entry !== null);
}

function searchable(info: Stats, { uid, gid }: { uid: number; gid: number }): boolean {
  const bits = info.uid === uid ? 0o100 : info.gid === gid ? 0o010 : 0o001;
  return (info.mode & bits) !== 0;
}

/**
 * bwrap runs as the agent's uid, so it cannot mount over a path it cannot
 * reach: a denied path below a folder that uid cannot enter is replaced by
 * that folder (nothing under it was readable to the agent anyway).
 */
async function firstUnreachable(entry: string, user: { uid: number; gid: number }): Promise<string> {
  const parts = entry.split(path.sep).filter(Boolean);
  for (let depth = 1; depth < parts.length; depth += 1) {
    const folder = path.sep + parts.slice(0, depth).join(path.sep);
    const info = await stat(folder).catch(() => null);
    if (!info) return entry;
    if (!searchable(info, user)) return folder;
  }
  return entry;
}

async function reachableOnly(paths: string[], user: { uid: number; gid: number }): Promise<string[]> {
  const reached = await Promise.all(paths.map(async (entry) => ((await firstUnreachable(entry, user)) === entry ? entry : null)));
  return reached.filter((entry) => entry !== null);
}

/** Throws the sentence when `target` lies below a folder the agent's uid cannot enter. */
async function reachable(target: string, user: { uid: number; gid: number }, what: string): Promise<void> {
  const blocked = await firstUnreachable(target, user);
  if (blocked !== target) {
    const mode = ((await stat(blocked)).mode & 0o777).toString(8).padStart(4, '0');
    throw new Error(
      `${what} is not reachable by uid ${user.uid}, as which the sandbox runs agents when the server runs as root: ${blocked} is mode ${mode}; make it searchable (chmod o+x) or move it`,
    );
  }
}

/** lchown: a link the agent planted in its folder is given over itself, never what it points to. */
async function chownTree(folder: string, { uid, gid }: { uid: number; gid: number }): Promise<void> {
  const info = await lstat(folder);
  if (info.uid !== uid || info.gid !== gid) await lchown(folder, uid, gid);
  if (!info.isDirectory()) return;
  for (const entry of await readdir(folder)) await chownTree(path.join(folder, entry), { uid, gid });
}

async function which(name: string): Promise<string | null> {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/** The signal's handlers as registered: a `once` handler is a wrapper with its `listener`. */
function handlersOf(signal: 'SIGINT' | 'SIGTERM'): NodeJS.SignalsListener[] {
  return process.rawListeners(signal) as NodeJS.SignalsListener[];
}
