// The agents of this server: at most one process per thread in the cluster,
// held under the thread's agent lease (./agent-lease), started by a turn here
// (spawn in the sandbox, initialize, session), stopped when idle, on
// shutdown, when the thread is deleted (with its credential and scratch
// folder), when another server takes the lease, and to make room: processes
// here are at most AION_AGENT_MAX, idle ones giving way, least recently used
// first (the cap on agents answering is the cluster's: ./capacity). Any
// failure of an agent fails that turn with a sentence, is recorded for
// `GET /assistant/agents`, and touches nothing else.
import { access, constants, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Operator } from '../access/operators.js';
import type { ThreadRecord } from '../assistant/threads.js';
import type { AgentConfig } from '../config.js';
import type { AgentListing } from '../assistant/deps.js';
import { messageOf, notFound, unavailable } from '../errors.js';
import { freshScratch, removeScratch } from './agent-home.js';
import { AgentLeases } from './agent-lease.js';
import { holdSandbox, launchOf, sandboxSentence, unsandboxedNotice, type LaunchPlan } from './launch.js';
import type { AgentHostDeps, AgentSession, SessionOwner } from './hosting.js';
import { notConfiguredHere } from './servers.js';
import { AgentStartError } from './start-error.js';

export class AgentHost implements SessionOwner {
  private readonly sessions = new Map<string, AgentSession>();
  /** Sessions being started, with how to abort each. */
  private readonly starting = new Map<string, { opened: Promise<AgentSession>; abort: AbortController }>();
  /** The threads whose agent answers a turn now: their processes never give way. */
  private readonly busyTurns = new Set<string>();
  /** When each thread's agent last answered, for stopping the least recently used to make room. */
  private readonly lastUsed = new Map<string, number>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Why an agent last failed to start, by name, until it starts again. */
  private readonly failures = new Map<string, string>();
  /** This server's URL, for the /mcp an agent is given; set once it listens. */
  serverUrl = '';

  /** Lets go of the sandbox library, when this host holds it. */
  private readonly releaseSandbox: () => Promise<void>;
  readonly leases: AgentLeases;

  constructor(readonly deps: AgentHostDeps) {
    // A lease lost to another server stops the process here; a deleted thread's goes with its folder.
    this.leases = new AgentLeases(deps, (threadId, gone) => void (gone ? this.forget(threadId) : this.halt(threadId)));
    // The sandbox library starts (and tries one sandbox) with the server, rather than in the first agent's turn.
    this.releaseSandbox = deps.config.agents.some((agent) => agent.sandbox !== 'off') ? holdSandbox() : async () => {};
    for (const agent of deps.config.agents) {
      void unsandboxedNotice(agent, deps.config.agentUnsandboxedAsRoot).then((notice) => notice && deps.log(notice));
    }
  }

  /** Lets go of what this server's previous life held, and starts renewing what it will hold. */
  open(): Promise<void> {
    return this.leases.open();
  }

  async list(): Promise<AgentListing[]> {
    return Promise.all(
      this.deps.config.agents.map(async (agent) => {
        const sandbox = await sandboxSentence(agent, this.deps.config.agentUnsandboxedAsRoot);
        const sentence = (await this.missingCommand(agent)) ?? sandbox.refused ?? this.failures.get(agent.name) ?? '';
        return { name: agent.name, title: agent.title, available: sentence === '', sentence, sandboxed: sandbox.sandboxed };
      }),
    );
  }

  /** The configured agent, ready to hold a new thread: 404 unknown, 503 with the sentence when not available. */
  async check(name: string): Promise<AgentConfig> {
    const agent = this.deps.config.agents.find((a) => a.name === name);
    if (!agent) throw notFound(`no such agent: ${name}; GET /api/v1/assistant/agents lists them`);
    const sentence = (await this.missingCommand(agent)) ?? (await sandboxSentence(agent, this.deps.config.agentUnsandboxedAsRoot)).refused ?? this.failures.get(agent.name);
    if (sentence) throw unavailable(`agent ${name} is not available: ${sentence}`);
    return agent;
  }

  private async missingCommand(agent: AgentConfig): Promise<string | null> {
    const candidates = agent.command.includes('/')
      ? [agent.command]
      : this.deps.config.agentPath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, agent.command));
    for (const candidate of candidates) {
      if (await access(candidate, constants.X_OK).then(() => true, () => false)) return null;
    }
    return `command not found: ${agent.command}`;
  }

  /**
   * Marks the thread's agent busy for a turn (the turn's claim counted it
   * against the cluster's cap): its process does not give way. The returned
   * function marks it idle again.
   */
  busy(threadId: string): () => void {
    this.busyTurns.add(threadId);
    this.clearIdle(threadId);
    return () => {
      this.busyTurns.delete(threadId);
      this.lastUsed.set(threadId, Date.now());
      if (this.sessions.has(threadId)) this.idleAfterTimeout(threadId);
    };
  }

  /** The thread's running session, started (or restarted) when it has none; the signal aborts a start at once. */
  async sessionFor(operator: Operator, thread: ThreadRecord, signal: AbortSignal): Promise<AgentSession> {
    const agent = this.deps.config.agents.find((a) => a.name === thread.agent);
    if (!agent) {
      const { db, config } = this.deps;
      throw unavailable(`${await notConfiguredHere(db, config.serverName, thread.agent ?? '', config.turnLeaseMs)}; your message is kept`);
    }
    // The turn needs the agent here: taking its lease stops the thread's process on any other server. A process
    // here that was not the lease's missed the turns run elsewhere; the new one loads the session or gets the transcript.
    if (!(await this.leases.take(thread.id))) await this.halt(thread.id);
    const running = this.sessions.get(thread.id);
    if (running?.agent.running) return running;
    if (running) await this.halt(thread.id);
    const pending = this.starting.get(thread.id);
    if (pending) return pending.opened;
    await this.makeRoom();
    const abort = new AbortController();
    const onAbort = () => abort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const opened = this.start(agent, operator, thread, abort.signal);
    this.starting.set(thread.id, { opened, abort });
    try {
      return await opened;
    } catch (error) {
      await this.leases.release(thread.id);
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.starting.delete(thread.id);
    }
  }

  /** Stops idle agents, least recently used first, until a new process fits under the cap. */
  private async makeRoom(): Promise<void> {
    const idle = [...this.sessions.keys()]
      .filter((id) => !this.busyTurns.has(id))
      .sort((a, b) => (this.lastUsed.get(a) ?? 0) - (this.lastUsed.get(b) ?? 0));
    while (this.sessions.size + this.starting.size >= this.deps.config.agentMax && idle.length > 0) {
      await this.stop(idle.shift() ?? '');
    }
  }

  private async start(agent: AgentConfig, operator: Operator, thread: ThreadRecord, signal: AbortSignal): Promise<AgentSession> {
    const folders = this.foldersOf(thread.id);
    let plan: LaunchPlan | null = null;
    try {
      // 0700, made anew: nothing the agent's previous process left is written through or read back.
      await freshScratch(folders);
      plan = await launchOf(agent, folders, {
        dataDir: this.deps.config.dataDir,
        serverUrl: this.serverUrl,
        path: this.deps.config.agentPath,
        unsandboxedAsRoot: this.deps.config.agentUnsandboxedAsRoot,
        uidBase: this.deps.config.agentUidBase,
        limits: this.deps.config.agentLimits,
      });
      // The ACP SDK loads with the first agent, not at start: a server without agents never pays for it.
      const { openSession } = await import('./session.js');
      const session = await openSession(this, agent, operator, thread, { ...folders, launch: plan.launch }, signal, (ended) => this.ended(thread.id, ended));
      session.onClose(plan.dispose);
      this.failures.delete(agent.name);
      this.sessions.set(thread.id, session);
      return session;
    } catch (error) {
      await plan?.dispose().catch(() => undefined);
      if (signal.aborted) throw signal.reason;
      const sentence = error instanceof AgentStartError ? error.message : `${agent.name} could not start: ${messageOf(error)}`;
      this.failures.set(agent.name, sentence);
      throw unavailable(`${sentence}; your message is kept`);
    }
  }

  /** The process went away (crash or stop): forget it, so the next message starts afresh, on any server. */
  private ended(threadId: string, session: AgentSession): void {
    if (this.sessions.get(threadId) === session) {
      this.sessions.delete(threadId);
      this.clearIdle(threadId);
      void this.leases.release(threadId);
    }
    void session.close();
  }

  foldersOf(threadId: string) {
    const root = path.join(this.deps.scratchRoot, threadId);
    return { root, home: path.join(root, 'home'), work: path.join(root, 'work') };
  }

  private idleAfterTimeout(threadId: string): void {
    this.clearIdle(threadId);
    const timer = setTimeout(() => void this.stop(threadId), this.deps.config.agentIdleMs);
    timer.unref();
    this.idleTimers.set(threadId, timer);
  }

  private clearIdle(threadId: string): void {
    clearTimeout(this.idleTimers.get(threadId));
    this.idleTimers.delete(threadId);
  }

  /** Whether an agent process of this thread runs here (for tests and the lifecycle). */
  pidOf(threadId: string): number | undefined {
    return this.sessions.get(threadId)?.agent.pid;
  }

  /** Stops the thread's agent, started or starting (its process group, its credential), and lets go of its lease. */
  async stop(threadId: string): Promise<void> {
    // Asked before the process stops, so a take by the next turn here lands after it.
    const released = this.leases.release(threadId);
    await this.halt(threadId);
    await released;
  }

  /** Stops the thread's agent here, leaving its lease: another server took it, or this turn just did. */
  private async halt(threadId: string): Promise<void> {
    this.clearIdle(threadId);
    this.starting.get(threadId)?.abort.abort(new Error('stopped'));
    const session = this.sessions.get(threadId);
    this.sessions.delete(threadId);
    this.lastUsed.delete(threadId);
    await session?.close();
  }

  /** The thread is deleted: its agent stops and its scratch folder goes. */
  async forget(threadId: string): Promise<void> {
    await this.stop(threadId);
    await this.starting.get(threadId)?.opened.catch(() => undefined);
    // What the agent left must not fail the delete: a folder that stays is the server's, hidden from every agent.
    await removeScratch(this.foldersOf(threadId).root).catch((error: unknown) =>
      this.deps.log(`the scratch folder of thread ${threadId} could not be removed: ${messageOf(error)}`),
    );
  }

  async stopAll(): Promise<void> {
    for (const { abort } of this.starting.values()) abort.abort(new Error('the server stops'));
    const held = new Set([...this.sessions.keys(), ...this.starting.keys()]);
    await Promise.all([...held].map((id) => this.stop(id)));
    await Promise.all([...this.starting.values()].map(({ opened }) => opened.catch(() => undefined)));
    await this.leases.close();
    await rm(this.deps.scratchRoot, { recursive: true, force: true });
    await this.releaseSandbox();
  }
}
