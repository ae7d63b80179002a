// The agents of this server: at most one process per active thread, started
// by the thread's first message here (spawn, initialize, session), stopped
// when idle, on shutdown, when the thread is deleted (with its credential and
// scratch folder) and, over the cap, never started at all.
import { access, constants, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Operator } from '../access/operators.js';
import type { TurnEvents } from '../assistant/events.js';
import type { PendingProposal } from '../assistant/proposing.js';
import type { RunningTurns } from '../assistant/running.js';
import type { ThreadRecord } from '../assistant/threads.js';
import type { AgentConfig, Config } from '../config.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { AuditLog } from '../domain/audit.js';
import { notFound, unavailable } from '../errors.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Executor } from '../tools/executor.js';
import type { AgentAnswer } from './answer.js';
import type { AgentSession } from './session.js';
import { AgentStartError } from './start-error.js';

export interface AgentHostDeps {
  db: Db;
  changes: Changes;
  contexts: ConversationContexts;
  executor: Executor;
  audit: AuditLog;
  events: TurnEvents;
  running: RunningTurns;
  config: Pick<Config, 'agents' | 'agentIdleMs' | 'agentMax' | 'agentTurnTimeoutMs' | 'agentPath' | 'contextTokens'>;
  /** Where the threads' scratch folders go. */
  scratchRoot: string;
}

export interface AgentListing {
  name: string;
  title: string;
  available: boolean;
  sentence: string;
}

export class AgentHost {
  private readonly sessions = new Map<string, AgentSession>();
  /** Sessions being started, counted against the cap. */
  private readonly starting = new Map<string, Promise<AgentSession>>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Why an agent last failed to start, by name, until it starts again. */
  private readonly failures = new Map<string, string>();
  /** This server's URL, for the /mcp an agent is given; set once it listens. */
  serverUrl = '';

  constructor(readonly deps: AgentHostDeps) {}

  async list(): Promise<AgentListing[]> {
    return Promise.all(
      this.deps.config.agents.map(async (agent) => {
        const sentence = (await this.missingCommand(agent)) ?? this.failures.get(agent.name) ?? '';
        return { name: agent.name, title: agent.title, available: sentence === '', sentence };
      }),
    );
  }

  /** The configured agent, ready to hold a new thread: 404 unknown, 503 with the sentence when not available. */
  async check(name: string): Promise<AgentConfig> {
    const agent = this.deps.config.agents.find((a) => a.name === name);
    if (!agent) throw notFound(`no such agent: ${name}; GET /api/v1/assistant/agents lists them`);
    const sentence = (await this.missingCommand(agent)) ?? this.failures.get(agent.name);
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

  /** The thread's running session, started (or restarted) when it has none. */
  async sessionFor(operator: Operator, thread: ThreadRecord): Promise<AgentSession> {
    const running = this.sessions.get(thread.id);
    if (running?.agent.running) return running;
    if (running) await this.stop(thread.id);
    const pending = this.starting.get(thread.id);
    if (pending) return pending;
    if (this.sessions.size + this.starting.size >= this.deps.config.agentMax) {
      throw unavailable(
        `this server already runs ${this.deps.config.agentMax} agents, its limit (AION_AGENT_MAX); try again when one is idle; your message is kept`,
      );
    }
    const agent = this.deps.config.agents.find((a) => a.name === thread.agent);
    if (!agent) throw unavailable(`agent ${thread.agent} is no longer configured on this server; your message is kept`);
    const started = this.start(agent, operator, thread);
    this.starting.set(thread.id, started);
    try {
      return await started;
    } finally {
      this.starting.delete(thread.id);
    }
  }

  private async start(agent: AgentConfig, operator: Operator, thread: ThreadRecord): Promise<AgentSession> {
    const folders = this.foldersOf(thread.id);
    await mkdir(folders.home, { recursive: true });
    await mkdir(folders.work, { recursive: true });
    try {
      // The ACP SDK loads with the first agent, not at start: a server without agents never pays for it.
      const { openSession } = await import('./session.js');
      const session = await openSession(this, agent, operator, thread, folders, () => this.ended(thread.id, session));
      this.failures.delete(agent.name);
      this.sessions.set(thread.id, session);
      return session;
    } catch (error) {
      if (error instanceof AgentStartError) {
        this.failures.set(agent.name, error.message);
        throw unavailable(`${error.message}; your message is kept`);
      }
      throw error;
    }
  }

  /** The process went away (crash or stop): forget it, so the next message starts afresh. */
  private ended(threadId: string, session: AgentSession): void {
    if (this.sessions.get(threadId) === session) this.sessions.delete(threadId);
    this.clearIdle(threadId);
    void session.close();
  }

  foldersOf(threadId: string) {
    const root = path.join(this.deps.scratchRoot, threadId);
    return { root, home: path.join(root, 'home'), work: path.join(root, 'work') };
  }

  /** Keeps the session alive while a turn runs; stops it after the idle time otherwise. */
  busy(threadId: string): void {
    this.clearIdle(threadId);
  }

  idle(threadId: string): void {
    this.clearIdle(threadId);
    const timer = setTimeout(() => void this.stop(threadId), this.deps.config.agentIdleMs);
    timer.unref();
    this.idleTimers.set(threadId, timer);
  }

  private clearIdle(threadId: string): void {
    clearTimeout(this.idleTimers.get(threadId));
    this.idleTimers.delete(threadId);
  }

  /** The answer of the thread's running agent turn on this server, if one runs. */
  runningAnswer(threadId: string): AgentAnswer | null {
    return this.sessions.get(threadId)?.turn?.answer ?? null;
  }

  /** A write the thread's agent called through /mcp: a proposal on the running turn's answer, when one runs here. */
  propose(threadId: string, proposal: PendingProposal): boolean {
    const answer = this.runningAnswer(threadId);
    answer?.propose(proposal);
    return answer !== null;
  }

  /** Whether an agent process of this thread runs here (for tests and the lifecycle). */
  pidOf(threadId: string): number | undefined {
    return this.sessions.get(threadId)?.agent.pid;
  }

  /** Stops the thread's agent: its process, its credential. */
  async stop(threadId: string): Promise<void> {
    this.clearIdle(threadId);
    const session = this.sessions.get(threadId);
    this.sessions.delete(threadId);
    await session?.close();
  }

  /** The thread is deleted: its agent stops and its scratch folder goes. */
  async forget(threadId: string): Promise<void> {
    await this.starting.get(threadId)?.catch(() => undefined);
    await this.stop(threadId);
    await rm(this.foldersOf(threadId).root, { recursive: true, force: true });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
  }
}

