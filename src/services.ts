// The server's services, made once at start over one store and shared by the
// HTTP routes, the assistant and MCP.
import { agentCapacity } from './acp/capacity.js';
import { AgentHost } from './acp/host.js';
import { runAgentTurn } from './acp/turn.js';
import { makeScratchRoot } from './acp/scratch-root.js';
import { Assistant, notConfiguredSentence } from './assistant/assistant.js';
import { storeAnswerIn } from './assistant/proposing.js';
import { createProvider } from './assistant/providers/index.js';
import { ChangeRequests } from './change-requests/change-requests.js';
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
import { Turns } from './turns/turns.js';
import { Webhooks } from './webhooks/webhooks.js';

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
  /** Changes held for a second operator where an environment requires two approvals. */
  changeRequests: ChangeRequests;
  /** The projects' outgoing webhooks; its sender starts once the server knows where the console is. */
  webhooks: Webhooks;
  assistant: Assistant;
  contexts: ConversationContexts;
  metrics: Metrics;
  agents: AgentHost;
  turns: Turns;
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
  | 'agentUnsandboxedAsRoot'
  | 'agentUidBase'
  | 'agentLimits'
  | 'serverName'
  | 'turnLeaseMs'
  | 'changeRequestTtlMs'
  | 'webhooks'
>;

export async function createServices(store: Store, config: ServiceConfig, log: ServiceLog): Promise<Services> {
  const db = store.db;
  const changes = await Changes.open(store, log);
  const projects = new ProjectDirectory(db, changes);
  const audit = new AuditLog(db, (err) => log.error({ err }, 'audit entries could not be written'));
  const secretBox = await SecretBox.load(config);
  await checkInstanceKey(db, secretBox);
  const contexts = new ConversationContexts(db, changes);
  const metrics = new Metrics();
  // Before anything can commit a change it tells: its outbox follows every transaction from the first.
  const webhooks = new Webhooks({ db, changes, projects, audit, secretBox, config: config.webhooks, log });
  // The executor's desk, which runs an approved change through it: made first, handed the executor once it exists.
  const changeRequests: ChangeRequests = new ChangeRequests({ db, changes, projects, audit, secretBox, metrics, ttlMs: config.changeRequestTtlMs, executor: () => executor });
  const executor: Executor = new Executor([...CATALOGUE, ...CONVERSATION_TOOLS], {
    db,
    changes,
    services: { projects, audit, secretBox, contexts, changeRequests },
    requests: changeRequests,
    log: (err, message) => log.error({ err }, message),
    observe: (run) => {
      metrics.toolRan(run);
      const { seconds, reqId, quiet, ...fields } = run;
      if (!quiet) log.info({ ...(reqId ? { reqId } : {}), ...fields, duration_ms: Math.round(seconds * 1e6) / 1000 }, 'tool run');
    },
  });
  const turns = new Turns({
    db,
    changes,
    config,
    log,
    metrics,
    // What an interrupted turn had said becomes its answer; its proposals wait.
    storeInterrupted: (tx, turn) => storeAnswerIn(tx, turn.threadId, { text: turn.text, blocks: turn.blocks, toolCalls: turn.toolCalls, stopReason: 'interrupted' }, turn.proposals).then(() => undefined),
  });
  const agents = new AgentHost({
    db,
    changes,
    contexts,
    executor,
    audit,
    turns,
    config,
    metrics,
    scratchRoot: await makeScratchRoot(),
    log: (message) => log.warn(message),
    logAgentOutput: (fields, message) => log.info(fields, message),
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
    changeRequests,
    agents: {
      check: (name) => agents.check(name),
      list: () => agents.list(),
      checkCapacity: (tx, operatorId) => agentCapacity(tx, { agentMax: config.agentMax, agentPerOperator: config.agentPerOperator, operatorId }),
      runTurn: (turn, operator, thread, text) => runAgentTurn(agents, turn, operator, thread, text),
      forget: (threadId) => agents.forget(threadId),
    },
    turns,
  });
  await turns.open();
  await agents.open();
  await changeRequests.start((err) => log.error({ err }, 'expiring change requests failed; trying again'));
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
    changeRequests,
    webhooks,
    assistant,
    contexts,
    metrics,
    agents,
    turns,
    drain: () => audit.flush(),
  };
}
