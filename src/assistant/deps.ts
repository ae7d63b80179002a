// What the assistant's parts share: the store, the executor, the project
// directory, the secret box, the model, the metrics, the change requests,
// the hosted agents, and the settings of DESIGN.md §4.
import type { Operator } from '../access/operators.js';
import type { ChangeRequests } from '../change-requests/change-requests.js';
import type { Config } from '../config.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { SecretBox } from '../domain/secret-box.js';
import type { Metrics } from '../metrics.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Executor } from '../tools/executor.js';
import type { RunningTurn } from '../turns/running-turn.js';
import type { Turns } from '../turns/turns.js';
import type { ModelProvider } from './providers/types.js';
import type { ThreadRecord } from './threads.js';

export interface AssistantDeps {
  db: Db;
  executor: Executor;
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
  changes: Changes;
  contexts: ConversationContexts;
  /** null when no model is configured. */
  provider: ModelProvider | null;
  /** The sentence that says what to set when no model is configured. */
  notConfigured: string;
  rate: Config['assistantRate'];
  contextTokens: number;
  metrics: Metrics;
  /** Where a proposal accepted in an environment that requires two approvals waits. */
  changeRequests: ChangeRequests;
  /** The ACP agents that hold threads. */
  agents: HostedAgents;
  turns: Turns;
}

/** An agent a thread may be held by, as `GET /assistant/agents` lists it. */
export interface AgentListing {
  name: string;
  title: string;
  available: boolean;
  sandboxed: boolean;
  /** Why it is not available, when it is not. */
  sentence: string;
}

/** What the assistant asks of the hosted ACP agents (src/acp answers it), so assistant/ never reaches into acp/. */
export interface HostedAgents {
  /** 404 or 503 with the sentence when a thread may not be opened with this agent. */
  check(name: string): Promise<unknown>;
  list(): Promise<AgentListing[]>;
  /** Inside a turn's claim: 503 with the sentence while the cluster's agents (or the operator's share) are all answering. */
  checkCapacity(tx: Db, operatorId: string): Promise<void>;
  /** One turn of the thread's agent; its answer stored through the turn. */
  runTurn(turn: RunningTurn, operator: Operator, thread: ThreadRecord, text: string): Promise<void>;
  /** The thread is deleted: its agent stops wherever it is held here. */
  forget(threadId: string): Promise<void>;
}
