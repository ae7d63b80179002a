// What the assistant's parts share: the store, the executor, the project
// directory, the secret box, the model, the metrics, the hosted agents, and
// the settings of DESIGN.md §4.
import type { AgentHost } from '../acp/host.js';
import type { Config } from '../config.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { SecretBox } from '../domain/secret-box.js';
import type { Metrics } from '../metrics.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Executor } from '../tools/executor.js';
import type { TurnEvents } from './events.js';
import type { ModelProvider } from './providers/types.js';
import type { RunningTurns } from './running.js';

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
  /** The ACP agents that hold threads on this server. */
  agents: AgentHost;
  events: TurnEvents;
  running: RunningTurns;
}
