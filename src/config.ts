// Every setting of the server, read once: from the command line's flags first,
// then the environment, then the defaults. Nothing else reads process.env.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_AGENT_LIMITS, type AgentLimits } from './acp/agent-limits.js';
import { DEFAULT_AGENT_UID_BASE } from './acp/agent-uids.js';
import { PACKAGE_ROOT } from './package-root.js';
import { isJsonObject } from './validation/json-object.js';

export interface Config {
  host: string;
  port: number;
  /** The data folder: the embedded store, the instance key, demo-tokens.json. */
  dataDir: string;
  /** PostgreSQL instead of the embedded store when set. */
  databaseUrl: string | null;
  demo: boolean;
  /** The token of the owner `admin`, created on an empty store. */
  adminToken: string | null;
  /** The instance key for secrets (32 bytes, base64). */
  secretKey: string | null;
  model: 'anthropic' | 'fake' | null;
  anthropicApiKey: string | null;
  anthropicModel: string;
  anthropicBaseUrl: string | null;
  assistantRate: { messages: number; windowSeconds: number };
  contextTokens: number;
  metricsToken: string | null;
  /** Web origins besides the server's own that may call /mcp (`https://aion.example.com`); their host names are the server's too. */
  allowedOrigins: string[];
  logLevel: string;
  /** How log lines read: `pretty` human lines, `json` one object a line, or null: pretty on a terminal, JSON elsewhere. */
  logFormat: LogFormat | null;
  /** The ACP agents a thread may be held by (DESIGN.md §6), by name. */
  agents: AgentConfig[];
  /** An agent process idle this long is stopped. */
  agentIdleMs: number;
  /** At most this many agents answer at once across the servers sharing the store; also the agent processes one server keeps (idle ones are stopped to make room). */
  agentMax: number;
  /** At most this many agents answer at once for one operator. */
  agentPerOperator: number;
  /** An agent answer's stored text is cut at this many bytes. */
  agentAnswerMaxBytes: number;
  /** A turn of an agent running longer than this is cancelled. */
  agentTurnTimeoutMs: number;
  /** The server's PATH: the one variable of its own an agent gets. */
  agentPath: string;
  /** Whether a server run as root may run an agent without a sandbox (as root): off unless the admin says so. */
  agentUnsandboxedAsRoot: boolean;
  /** Under a root server each agent process runs as a uid of its own from this one up (a million of them). */
  agentUidBase: number;
  /** What one sandboxed agent may use: processes, memory, scratch and /tmp sizes. */
  agentLimits: AgentLimits;
  /** A turn whose server has not renewed its lease for this long was interrupted: any server may take the thread. */
  turnLeaseMs: number;
  /** This server's name among those sharing the store (default `host:port`); a server started again under it releases what it held. */
  serverName: string;
  /** A change request nobody decided within this long expires. */
  changeRequestTtlMs: number;
  /** A write whose request arrived longer ago than this does not start (503): its client has likely given up. */
  requestQueueLimitMs: number;
  /** On SIGTERM, requests in flight get this long to finish before the server closes. */
  drainTimeoutMs: number;
  /** HTTPS with HTTP/2 (ALPN, HTTP/1.1 for clients without it): the certificate chain and its key, PEM files by path; null: plain HTTP/1.1. */
  tls: { certFile: string; keyFile: string } | null;
  /** Where people reach the console (`https://aion.example.com`), for links sent out; null: the address this server listens on. */
  publicUrl: string | null;
  webhooks: WebhookConfig;
  /** How long a PostgreSQL transaction may wait for a lock, run one statement, or sit idle inside (DESIGN §14). */
  dbLimits: DbLimits;
}

/** PostgreSQL's `lock_timeout`, `statement_timeout` and `idle_in_transaction_session_timeout`, in milliseconds. */
export interface DbLimits {
  lockTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionMs: number;
}

/** How outgoing webhooks are sent (src/webhooks). */
export interface WebhookConfig {
  /** Tries per delivery before it is failed. */
  attempts: number;
  /** The wait after the first failed try; each next one is four times longer (with jitter), at most 6 h. */
  backoffMs: number;
  /** A receiver that has not answered within this long failed this try. */
  timeoutMs: number;
  /** Whether hooks may post to loopback and private addresses (off: only public ones). */
  allowPrivate: boolean;
}

export type LogFormat = 'json' | 'pretty';

/** One ACP agent: how to start it, and the only environment it gets besides PATH and its own HOME. */
export interface AgentConfig {
  name: string;
  title: string;
  command: string;
  args: string[];
  /** Its configured variables, and the values of those its `pass_env` names, read here once. */
  env: Record<string, string>;
  /** Hosts (`host` or `host:port`) it may reach besides Aion's own endpoint, e.g. its model's API. */
  allowHosts: string[];
  /**
   * The OS sandbox: `required` (the default; an agent whose sandbox cannot
   * start is unavailable), `off` (only the admin's explicit `"sandbox": false`),
   * `preferred` (the demo agent, our own code: unsandboxed where none can start).
   */
  sandbox: 'required' | 'preferred' | 'off';
}

export interface ServeFlags {
  host?: string;
  port?: string | number;
  data?: string;
  demo?: boolean;
  /** `NAME=COMMAND`, repeatable. */
  agent?: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** A setting or the command line is wrong: one sentence, exit status 2 (a usage error). */
export class ConfigError extends Error {}

/** The settings are well-formed but the world refuses (a busy port, no such database): one sentence, exit status 1. */
export class StartError extends Error {}

/** The defaults of `ops serve`'s flags, shown by `ops serve --help`. */
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: '8080', data: '.aion' } as const;
const DEFAULTS = {
  anthropicModel: 'claude-sonnet-4-5',
  assistantRate: '30/5m',
  contextTokens: '60000',
  logLevel: 'info',
  agentIdle: '10m',
  agentMax: '8',
  agentUidBase: String(DEFAULT_AGENT_UID_BASE),
  agentProcesses: String(DEFAULT_AGENT_LIMITS.processes),
  agentMemory: String(DEFAULT_AGENT_LIMITS.memoryMiB),
  agentScratch: String(DEFAULT_AGENT_LIMITS.scratchMiB),
  agentTmp: String(DEFAULT_AGENT_LIMITS.tmpMiB),
  agentCpu: String(DEFAULT_AGENT_LIMITS.cpuSeconds),
  agentTurnTimeout: '5m',
  agentPerOperator: '2',
  agentAnswerMax: '1048576',
  turnLease: '15s',
  changeRequestTtl: '24h',
  requestQueueLimit: '10s',
  drainTimeout: '30s',
  webhookAttempts: '8',
  webhookBackoff: '30s',
  webhookTimeout: '10s',
  dbLockTimeout: '5s',
  dbStatementTimeout: '30s',
  dbIdleInTransaction: '10s',
} as const;

/** What `ops serve` reads from the environment besides its flags' own variables; `ops serve --help` lists them. */
export const SERVE_ENVIRONMENT: readonly (readonly [name: string, meaning: string])[] = [
  ['DATABASE_URL', 'PostgreSQL instead of the embedded store'],
  ['AION_ADMIN_TOKEN', 'on an empty store, the token of the owner admin (else one is printed once)'],
  ['AION_SECRET_KEY', 'the instance key for secrets, 32 bytes in base64 (default: generated into the data folder)'],
  ['AION_MODEL', 'the assistant\'s model: anthropic or fake (default: anthropic with ANTHROPIC_API_KEY, fake under --demo)'],
  ['ANTHROPIC_API_KEY', 'key for the anthropic model'],
  ['AION_ANTHROPIC_MODEL', `which Claude model to call (default: ${DEFAULTS.anthropicModel})`],
  ['ANTHROPIC_BASE_URL', 'where the Anthropic API is'],
  ['AION_ASSISTANT_RATE', `assistant messages per operator per window (default: ${DEFAULTS.assistantRate})`],
  ['AION_CONTEXT_TOKENS', `history budget of a turn (default: ${DEFAULTS.contextTokens})`],
  ['AION_METRICS_TOKEN', 'bearer token that opens /metrics beyond loopback'],
  ['AION_ALLOWED_ORIGINS', "web origins besides the server's own that may call /mcp, comma-separated, like https://aion.example.com; their host names are the server's"],
  ['AION_LOG_LEVEL', `pino log level, logs on stderr (default: ${DEFAULTS.logLevel})`],
  ['AION_LOG_FORMAT', 'json (one object a line) or pretty (human lines; requests at debug) (default: pretty on a terminal, json elsewhere)'],
  ['AION_AGENTS', 'ACP agents as JSON: {"NAME": {"command", "args", "env", "pass_env", "allow_hosts", "sandbox"}} (also --agent NAME=COMMAND)'],
  ['AION_AGENT_IDLE', `an agent process idle this long is stopped (default: ${DEFAULTS.agentIdle})`],
  ['AION_AGENT_PROCESSES', `processes and threads one sandboxed agent may run at once (default: ${DEFAULTS.agentProcesses})`],
  ['AION_AGENT_MEMORY_MB', 'memory one process of a sandboxed agent may allocate, MiB (default: 0, none: Node 26 agents need their runtime unbounded)'],
  ['AION_AGENT_SCRATCH_MB', `a sandboxed agent's scratch folder (its HOME), MiB (default: ${DEFAULTS.agentScratch})`],
  ['AION_AGENT_TMP_MB', `a sandboxed agent's /tmp and /dev/shm, MiB each (default: ${DEFAULTS.agentTmp})`],
  ['AION_AGENT_CPU_SECONDS', `CPU seconds an agent's processes may use per turn, all together; past it the agent is stopped (default: ${DEFAULTS.agentCpu}; 0: none)`],
  ['AION_AGENT_UID_BASE', `under a root server each agent runs as its own uid, from this one up (default: ${DEFAULTS.agentUidBase})`],
  ['AION_AGENT_MAX', `at most this many agents answering at once across the servers sharing the store (default: ${DEFAULTS.agentMax})`],
  ['AION_AGENT_PER_OPERATOR', `at most this many agents answering at once for one operator (default: ${DEFAULTS.agentPerOperator})`],
  ['AION_AGENT_ANSWER_MAX', `an agent answer's stored text is cut at this many bytes (default: ${DEFAULTS.agentAnswerMax})`],
  ['PATH', 'where ACP agents\' commands are found: the one variable of the server\'s own an agent gets'],
  ['AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT', 'set to 1 to let a server run as root run agents without a sandbox (as root); else such an agent is unavailable (default: 0)'],
  ['AION_AGENT_TURN_TIMEOUT', `an agent turn running longer is cancelled (default: ${DEFAULTS.agentTurnTimeout})`],
  [
    'AION_TURN_LEASE',
    `a turn whose server stopped renewing its lease this long ago was interrupted; another server takes the thread; a dead server's agent credentials expire after four (default: ${DEFAULTS.turnLease})`,
  ],
  ['AION_SERVER_NAME', "this server's name among those sharing a PostgreSQL store (default: host:port)"],
  [
    'AION_CHANGE_REQUEST_TTL',
    `a change request (a change where an environment requires two approvals) that nobody approved or declined this long expires (default: ${DEFAULTS.changeRequestTtl})`,
  ],
  ['AION_REQUEST_QUEUE_LIMIT', `a write (deploy, accept, …) whose request arrived longer ago than this does not start: 503, nothing changed (default: ${DEFAULTS.requestQueueLimit})`],
  ['AION_DRAIN_TIMEOUT', `on SIGTERM, how long requests in flight may take to finish before the server closes (default: ${DEFAULTS.drainTimeout})`],
  ['AION_TLS_CERT', 'a PEM certificate chain (path): the server speaks HTTPS with HTTP/2, HTTP/1.1 for clients without it; needs AION_TLS_KEY'],
  ['AION_TLS_KEY', "the certificate's PEM private key (path)"],
  ['AION_PUBLIC_URL', "where people reach the console, like https://aion.example.com, for the links webhooks send (default: the address the server listens on)"],
  ['AION_WEBHOOK_ATTEMPTS', `tries of a webhook delivery before it is failed (default: ${DEFAULTS.webhookAttempts})`],
  ['AION_WEBHOOK_BACKOFF', `wait after a webhook's first failed try; each next is four times longer with jitter, at most 6h (default: ${DEFAULTS.webhookBackoff})`],
  ['AION_WEBHOOK_TIMEOUT', `a webhook receiver that has not answered this long failed that try (default: ${DEFAULTS.webhookTimeout})`],
  ['AION_WEBHOOK_ALLOW_PRIVATE', 'set to 1 to let webhooks post to loopback and private-network addresses (default: public addresses only)'],
  ['AION_DB_LOCK_TIMEOUT', `PostgreSQL: a statement waiting this long for a lock gives up, answering 503 (default: ${DEFAULTS.dbLockTimeout})`],
  ['AION_DB_STATEMENT_TIMEOUT', `PostgreSQL: a statement running this long is cancelled, answering 503 (default: ${DEFAULTS.dbStatementTimeout})`],
  [
    'AION_DB_IDLE_IN_TRANSACTION_TIMEOUT',
    `PostgreSQL: a transaction left idle this long (its server stalled) is ended and its locks freed (default: ${DEFAULTS.dbIdleInTransaction})`,
  ],
];

export function readConfig(flags: ServeFlags = {}, env: Env = process.env): Config {
  const demo = flags.demo ?? false;
  const port = parsePort(flags.port ?? env.AION_PORT ?? SERVE_DEFAULTS.port);
  return {
    host: flags.host ?? env.AION_HOST ?? SERVE_DEFAULTS.host,
    port,
    dataDir: path.resolve(flags.data ?? env.AION_DATA ?? SERVE_DEFAULTS.data),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    demo,
    adminToken: nonEmpty(env.AION_ADMIN_TOKEN),
    secretKey: nonEmpty(env.AION_SECRET_KEY),
    model: parseModel(env, demo),
    anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
    anthropicModel: nonEmpty(env.AION_ANTHROPIC_MODEL) ?? DEFAULTS.anthropicModel,
    anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    assistantRate: parseRate(env.AION_ASSISTANT_RATE ?? DEFAULTS.assistantRate),
    contextTokens: parsePositiveInt('AION_CONTEXT_TOKENS', env.AION_CONTEXT_TOKENS ?? DEFAULTS.contextTokens),
    metricsToken: nonEmpty(env.AION_METRICS_TOKEN),
    allowedOrigins: parseOrigins(env.AION_ALLOWED_ORIGINS ?? ''),
    logLevel: nonEmpty(env.AION_LOG_LEVEL) ?? DEFAULTS.logLevel,
    logFormat: parseLogFormat(env.AION_LOG_FORMAT),
    agents: parseAgents(flags.agent ?? [], env, demo),
    agentIdleMs: parseDuration('AION_AGENT_IDLE', env.AION_AGENT_IDLE ?? DEFAULTS.agentIdle),
    agentMax: parsePositiveInt('AION_AGENT_MAX', env.AION_AGENT_MAX ?? DEFAULTS.agentMax),
    agentPerOperator: parsePositiveInt('AION_AGENT_PER_OPERATOR', env.AION_AGENT_PER_OPERATOR ?? DEFAULTS.agentPerOperator),
    agentAnswerMaxBytes: parsePositiveInt('AION_AGENT_ANSWER_MAX', env.AION_AGENT_ANSWER_MAX ?? DEFAULTS.agentAnswerMax),
    agentTurnTimeoutMs: parseDuration('AION_AGENT_TURN_TIMEOUT', env.AION_AGENT_TURN_TIMEOUT ?? DEFAULTS.agentTurnTimeout),
    agentPath: env.PATH ?? '',
    agentUnsandboxedAsRoot: parseSwitch('AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT', env.AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT),
    agentUidBase: parsePositiveInt('AION_AGENT_UID_BASE', env.AION_AGENT_UID_BASE ?? DEFAULTS.agentUidBase),
    agentLimits: {
      processes: parsePositiveInt('AION_AGENT_PROCESSES', env.AION_AGENT_PROCESSES ?? DEFAULTS.agentProcesses),
      memoryMiB: (env.AION_AGENT_MEMORY_MB ?? DEFAULTS.agentMemory) === '0' ? 0 : parsePositiveInt('AION_AGENT_MEMORY_MB', env.AION_AGENT_MEMORY_MB ?? DEFAULTS.agentMemory),
      scratchMiB: parsePositiveInt('AION_AGENT_SCRATCH_MB', env.AION_AGENT_SCRATCH_MB ?? DEFAULTS.agentScratch),
      tmpMiB: parsePositiveInt('AION_AGENT_TMP_MB', env.AION_AGENT_TMP_MB ?? DEFAULTS.agentTmp),
      cpuSeconds: (env.AION_AGENT_CPU_SECONDS ?? DEFAULTS.agentCpu) === '0' ? 0 : parsePositiveInt('AION_AGENT_CPU_SECONDS', env.AION_AGENT_CPU_SECONDS ?? DEFAULTS.agentCpu),
    },
    turnLeaseMs: parseDuration('AION_TURN_LEASE', env.AION_TURN_LEASE ?? DEFAULTS.turnLease),
    serverName: nonEmpty(env.AION_SERVER_NAME) ?? defaultServerName(port),
    changeRequestTtlMs: parseDuration('AION_CHANGE_REQUEST_TTL', env.AION_CHANGE_REQUEST_TTL ?? DEFAULTS.changeRequestTtl),
    requestQueueLimitMs: parseDuration('AION_REQUEST_QUEUE_LIMIT', env.AION_REQUEST_QUEUE_LIMIT ?? DEFAULTS.requestQueueLimit),
    drainTimeoutMs: parseDuration('AION_DRAIN_TIMEOUT', env.AION_DRAIN_TIMEOUT ?? DEFAULTS.drainTimeout),
    publicUrl: parsePublicUrl(nonEmpty(env.AION_PUBLIC_URL)),
    tls: parseTls(nonEmpty(env.AION_TLS_CERT), nonEmpty(env.AION_TLS_KEY)),
    webhooks: {
      attempts: parsePositiveInt('AION_WEBHOOK_ATTEMPTS', env.AION_WEBHOOK_ATTEMPTS ?? DEFAULTS.webhookAttempts),
      backoffMs: parseDuration('AION_WEBHOOK_BACKOFF', env.AION_WEBHOOK_BACKOFF ?? DEFAULTS.webhookBackoff),
      timeoutMs: parseDuration('AION_WEBHOOK_TIMEOUT', env.AION_WEBHOOK_TIMEOUT ?? DEFAULTS.webhookTimeout),
      allowPrivate: env.AION_WEBHOOK_ALLOW_PRIVATE === '1',
    },
    dbLimits: parseDbLimits(env),
  };
}

/** The three limits; a lock wait must be shorter than a statement, or lock_timeout would never be what cuts it. */
function parseDbLimits(env: Env): DbLimits {
  const limits = {
    lockTimeoutMs: parseDuration('AION_DB_LOCK_TIMEOUT', env.AION_DB_LOCK_TIMEOUT ?? DEFAULTS.dbLockTimeout),
    statementTimeoutMs: parseDuration('AION_DB_STATEMENT_TIMEOUT', env.AION_DB_STATEMENT_TIMEOUT ?? DEFAULTS.dbStatementTimeout),
    idleInTransactionMs: parseDuration('AION_DB_IDLE_IN_TRANSACTION_TIMEOUT', env.AION_DB_IDLE_IN_TRANSACTION_TIMEOUT ?? DEFAULTS.dbIdleInTransaction),
  };
  if (limits.lockTimeoutMs >= limits.statementTimeoutMs) {
    throw new ConfigError(
      `AION_DB_LOCK_TIMEOUT (${limits.lockTimeoutMs} ms) must be shorter than AION_DB_STATEMENT_TIMEOUT (${limits.statementTimeoutMs} ms)`,
    );
  }
  return limits;
}

/** `host:port`; a server on a port the system picks has no name to come back under, so it gets a unique one. */
function defaultServerName(port: number): string {
  return port === 0 ? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}` : `${os.hostname()}:${port}`;
}

function parseLogFormat(value: string | undefined): LogFormat | null {
  const format = nonEmpty(value);
  if (format === null) return null;
  if (format === 'json' || format === 'pretty') return format;
  throw new ConfigError(`AION_LOG_FORMAT must be json or pretty, not ${JSON.stringify(format)}`);
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value;
}

function parsePort(value: string | number): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`port must be a whole number from 0 to 65535; got ${String(value)}`);
  }
  return port;
}

function parsePositiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive whole number; got ${value}`);
  return n;
}

/** `1` on, `0` or unset off. */
function parseSwitch(name: string, value: string | undefined): boolean {
  if (value === undefined || value.trim() === '' || value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0; got ${value}`);
}

function parseModel(env: Env, demo: boolean): Config['model'] {
  const model = nonEmpty(env.AION_MODEL);
  if (model === 'anthropic' || model === 'fake') return model;
  if (model !== null) throw new ConfigError(`AION_MODEL must be anthropic or fake; got ${model}`);
  if (nonEmpty(env.ANTHROPIC_API_KEY)) return 'anthropic';
  return demo ? 'fake' : null;
}

/** `https://aion.example.com, http://10.0.0.5:8080`: origins as a browser sends them, kept in the form it does. */
function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = URL.canParse(entry) ? new URL(entry) : null;
      const web = url?.protocol === 'http:' || url?.protocol === 'https:';
      if (!url || !web || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
        throw new ConfigError(`AION_ALLOWED_ORIGINS must list origins like https://aion.example.com (scheme, host, port; no path); got ${entry}`);
      }
      return url.origin;
    });
}

/** `https://aion.example.com` or `https://example.com/aion`: kept without a trailing slash, so paths append. */
function parseTls(certFile: string | null, keyFile: string | null): Config['tls'] {
  if (certFile === null && keyFile === null) return null;
  if (certFile === null || keyFile === null) throw new ConfigError('AION_TLS_CERT and AION_TLS_KEY go together: set both (HTTPS with HTTP/2) or neither');
  return { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
}

function parsePublicUrl(value: string | null): string | null {
  if (value === null) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`AION_PUBLIC_URL must be an http(s) address like https://aion.example.com (no query, no credentials); got ${value}`);
  }
  return url.href.replace(/\/+$/, '');
}

const RATE_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** `30/5m`: 30 messages per 5 minutes. */
function parseRate(value: string): Config['assistantRate'] {
  const match = /^(\d+)\/(\d*)([smh])$/.exec(value.trim());
  const messages = Number(match?.[1]);
  const count = match?.[2] === '' ? 1 : Number(match?.[2]);
  const unit = RATE_UNITS[match?.[3] ?? ''];
  if (!match || unit === undefined || messages <= 0 || count <= 0) {
    throw new ConfigError(`AION_ASSISTANT_RATE must look like 30/5m (messages per window of s, m or h); got ${value}`);
  }
  return { messages, windowSeconds: count * unit };
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `10m`, `30s`, `500ms`; a bare number is seconds. */
function parseDuration(name: string, value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value.trim());
  const n = Number(match?.[1]);
  if (!match || n <= 0) throw new ConfigError(`${name} must be a duration like 10m, 30s or 500ms; got ${value}`);
  return n * (DURATION_UNITS[match[2] ?? 's'] ?? 1000);
}

const AGENT_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** `api.anthropic.com`, `*.googleapis.com`, `127.0.0.1:4000`: a host name or address, maybe a port. */
const HOST_PATTERN = /^(\*\.)?[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/;

/** `ops` itself, for `ops demo-agent`. */
export const OPS_MAIN = path.join(PACKAGE_ROOT, 'dist', 'main.js');

/** `--agent NAME=COMMAND` (words split without a shell), then AION_AGENTS, then `demo-agent` under --demo. */
function parseAgents(flags: string[], env: Env, demo: boolean): AgentConfig[] {
  const agents = new Map<string, AgentConfig>();
  const add = (agent: AgentConfig) => {
    if (!AGENT_NAME.test(agent.name)) {
      throw new ConfigError(`agent name ${agent.name} must be lowercase letters, digits, - and _ (at most 40)`);
    }
    if (agents.has(agent.name)) throw new ConfigError(`agent ${agent.name} is configured twice`);
    agents.set(agent.name, agent);
  };
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const words = flag.slice(at + 1).trim().split(/\s+/).filter(Boolean);
    const [command, ...args] = words;
    if (at <= 0 || !command) throw new ConfigError(`--agent must look like NAME=COMMAND; got ${flag}`);
    const name = flag.slice(0, at);
    add({ name, title: name, command, args, env: {}, allowHosts: [], sandbox: 'required' });
  }
  const json = nonEmpty(env.AION_AGENTS);
  if (json !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new ConfigError('AION_AGENTS must be a JSON object: {"NAME": {"command": "...", "args": [...], "env": {...}, "pass_env": [...]}}');
    }
    if (!isJsonObject(parsed)) throw new ConfigError('AION_AGENTS must be a JSON object of agents by name');
    for (const [name, entry] of Object.entries(parsed)) add(agentFromJson(name, entry, env));
  }
  if (demo && !agents.has('demo-agent')) {
    // Our own code: sandboxed where a sandbox can start, else run plainly (the host says so once).
    add({ name: 'demo-agent', title: 'Demo agent', command: process.execPath, args: [OPS_MAIN, 'demo-agent'], env: {}, allowHosts: [], sandbox: 'preferred' });
  }
  return [...agents.values()];
}

function agentFromJson(name: string, entry: unknown, env: Env): AgentConfig {
  const wrong = (what: string) => new ConfigError(`AION_AGENTS.${name}: ${what}`);
  if (!isJsonObject(entry)) throw wrong('must be an object with a command');
  const { command, args = [], env: vars = {}, pass_env: passed = [], title = name, allow_hosts: allowHosts = [], sandbox = true } = entry;
  if (typeof command !== 'string' || command.trim() === '') throw wrong('command must be a non-empty string');
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw wrong('args must be an array of strings');
  if (typeof title !== 'string') throw wrong('title must be a string');
  if (!isJsonObject(vars) || !Object.values(vars).every((v) => typeof v === 'string')) throw wrong('env must be an object of strings');
  if (!Array.isArray(passed) || !passed.every((p) => typeof p === 'string')) throw wrong('pass_env must be an array of variable names');
  if (!Array.isArray(allowHosts) || !allowHosts.every((h) => typeof h === 'string' && HOST_PATTERN.test(h))) {
    throw wrong('allow_hosts must be an array of host names or host:port, like api.anthropic.com');
  }
  if (typeof sandbox !== 'boolean') throw wrong('sandbox must be true or false');
  const values: Record<string, string> = { ...(vars as Record<string, string>) };
  for (const variable of passed as string[]) {
    const value = env[variable];
    if (value !== undefined) values[variable] = value;
  }
  return { name, title, command, args: args as string[], env: values, allowHosts: allowHosts as string[], sandbox: sandbox ? 'required' : 'off' };
}

