// The server's services, made once at start over one store and shared by the
// HTTP routes, the assistant and MCP.
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentHost } from './acp/host.js';
import { Assistant, notConfiguredSentence } from './assistant/assistant.js';
import { TurnEvents } from './assistant/events.js';
import { RunningTurns } from './assistant/running.js';
import { createProvider } from './assistant/providers/index.js';
import type { Config } from './config.js';
import { ConversationContexts } from './conversation/context.js';
import { CONVERSATION_TOOLS } from './conversation/tools.js';
import { Authenticator } from './access/tokens.js';
import { AuditLog } from './domain/audit.js';
import { LiveBodies } from './domain/live-bodies.js';
import { ProjectDirectory } from './domain/project-directory.js';
import { checkInstanceKey } from './domain/instance-key.js';
import { SecretBox } from './domain/secret-box.js';
import { Metrics } from './metrics.js';
import { Changes } from './store/changes.js';
import type { Db, Store } from './store/db.js';
import { CATALOGUE } from './tools/catalogue/index.js';
import { Executor } from './tools/executor.js';

export interface Services {
  store: Store;
  db: Db;
  changes: Changes;
  authenticator: Authenticator;
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
  /** What the live endpoint serves, computed once per deployment. */
  liveBodies: LiveBodies;
  executor: Executor;
  assistant: Assistant;
  contexts: ConversationContexts;
  metrics: Metrics;
  agents: AgentHost;
  events: TurnEvents;
  running: RunningTurns;
  /** Writes what is queued (the audit of reads); the store stays open. */
  drain(): Promise<void>;
}

export interface ServiceLog {
  error(details: { err: unknown }, message: string): void;
  warn(message: string): void;
  info(details: object, message: string): void;
}

export type ServiceConfig = Pick<
  Config,
  | 'secretKey'
  | 'dataDir'
  | 'databaseUrl'
  | 'model'
  | 'anthropicApiKey'
  | 'anthropicModel'
  | 'anthropicBaseUrl'
  | 'assistantRate'
  | 'contextTokens'
  | 'agents'
  | 'agentIdleMs'
  | 'agentMax'
  | 'agentPerOperator'
  | 'agentAnswerMaxBytes'
  | 'agentTurnTimeoutMs'
  | 'agentPath'
>;

/**
 * Where the agents' scratch folders go: outside the data folder, which no
 * agent may read. 0711: an agent running as `nobody` (a root server's) may
 * pass through to its own folder, and list none of the others.
 */
async function scratchRoot(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aion-agents-'));
  await chmod(root, 0o711);
  return root;
}

export async function createServices(store: Store, config: ServiceConfig, log: ServiceLog): Promise<Services> {
  const db = store.db;
  const changes = await Changes.open(store, log);
  const projects = new ProjectDirectory(db, changes);
  const audit = new AuditLog(db, (err) => log.error({ err }, 'audit entries could not be written'));
  const secretBox = await SecretBox.load(config);
  await checkInstanceKey(db, secretBox);
  const contexts = new ConversationContexts(db, changes);
  const metrics = new Metrics();
  const executor = new Executor([...CATALOGUE, ...CONVERSATION_TOOLS], {
    db,
    changes,
    services: { projects, audit, secretBox, contexts },
    log: (err, message) => log.error({ err }, message),
    observe: (run) => {
      metrics.toolRan(run);
      const { seconds, reqId, ...fields } = run;
      log.info({ ...(reqId ? { reqId } : {}), ...fields, duration_ms: Math.round(seconds * 1e6) / 1000 }, 'tool run');
    },
  });
  const events = new TurnEvents();
  const running = new RunningTurns();
  const agents = new AgentHost({
    db,
    changes,
    contexts,
    executor,
    audit,
    events,
    running,
    config,
    scratchRoot: await scratchRoot(),
    log: (message) => log.warn(message),
  });
  const assistant = new Assistant({
    db,
    executor,
    projects,
    audit,
    secretBox,
    changes,
    contexts,
    provider: createProvider(config),
    notConfigured: notConfiguredSentence(config),
    rate: config.assistantRate,
    contextTokens: config.contextTokens,
    metrics,
    agents,
    events,
    running,
  });
  return {
    store,
    db,
    changes,
    authenticator: new Authenticator(db, changes),
    projects,
    audit,
    secretBox,
    liveBodies: new LiveBodies(db, secretBox, changes),
    executor,
    assistant,
    contexts,
    metrics,
    agents,
    events,
    running,
    drain: () => audit.flush(),
  };
}
