// What the host of a server's agents and one agent's session know of each
// other: the host's services, a running session, and what a session may ask
// of its host. Apart from both, so neither imports the other.
import type { AgentTurnUsage } from '../assistant/usage.js';
import type { Config } from '../config.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { AuditLog } from '../domain/audit.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Metrics } from '../metrics.js';
import type { Executor } from '../tools/executor.js';
import type { Turns } from '../turns/turns.js';
import type { AgentLeases } from './agent-lease.js';
import type { AgentLogSink } from './agent-log.js';
import type { AgentProcess } from './agent-process.js';
import type { CpuBudget } from './cpu-budget.js';
import type { AgentAnswer } from './answer.js';
import type { AgentFiles } from './files.js';
import type { SessionOptions } from './options.js';

export interface AgentHostDeps {
  db: Db;
  changes: Changes;
  contexts: ConversationContexts;
  executor: Executor;
  audit: AuditLog;
  turns: Turns;
  config: Pick<
    Config,
    | 'agents'
    | 'agentIdleMs'
    | 'agentMax'
    | 'agentTurnTimeoutMs'
    | 'agentAnswerMaxBytes'
    | 'agentPath'
    | 'agentUnsandboxedAsRoot'
    | 'agentUidBase'
    | 'agentLimits'
    | 'contextTokens'
    | 'dataDir'
    | 'serverName'
    | 'turnLeaseMs'
  >;
  /** Where the threads' scratch folders go: outside the data folder, 0700. */
  scratchRoot: string;
  metrics: Pick<Metrics, 'agentReported'>;
  log: (message: string) => void;
  /** One structured line of what an agent said outside the protocol (./agent-log). */
  logAgentOutput: AgentLogSink;
}

export interface RunningAgentTurn {
  answer: AgentAnswer;
  cancelled: boolean;
  /** What the agent reported of its model's cost during the turn. */
  usage: AgentTurnUsage;
}

export interface AgentSession {
  agent: AgentProcess;
  sessionId: string;
  files: AgentFiles;
  /** A new session over a thread that already has messages: the next prompt carries its transcript. */
  needsTranscript: boolean;
  /** Its modes and config options as it last reported them. */
  offered: SessionOptions;
  turn: RunningAgentTurn | null;
  /** Counts the agent's CPU time from each turn's start (AION_AGENT_CPU_SECONDS). */
  cpu: CpuBudget;
  /** Why the server stopped the agent (its CPU budget spent), once it did: the turn fails with this sentence. */
  stoppedFor: string | null;
  /** Stops the process and revokes its credential; then runs the cleanups given. */
  close(): Promise<void>;
  onClose(cleanup: () => Promise<void>): void;
}

/** What a session asks of the host that started it. */
export interface SessionOwner {
  readonly deps: AgentHostDeps;
  /** This server's URL, for the /mcp an agent is given. */
  readonly serverUrl: string;
  /** The threads' agent leases: a hosted agent's credential lives and is renewed with its thread's. */
  readonly leases: AgentLeases;
  /** Stops the thread's agent. */
  stop(threadId: string): Promise<void>;
}
