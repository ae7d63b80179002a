// Every setting of the server, read once: from the command line's flags first,
// then the environment, then the defaults. Nothing else reads process.env.
import path from 'node:path';

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
  logLevel: string;
}

export interface ServeFlags {
  host?: string;
  port?: string | number;
  data?: string;
  demo?: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A setting or the command line is wrong: one sentence, exit status 2 (a usage error). */
export class ConfigError extends Error {}

/** The settings are well-formed but the world refuses (a busy port, no such database): one sentence, exit status 1. */
export class StartError extends Error {}

/** The defaults of `ops serve`'s flags, shown by `ops serve --help`. */
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: '8080', data: '.aion' } as const;
const DEFAULTS = { anthropicModel: 'claude-sonnet-4-5', assistantRate: '30/5m', contextTokens: '60000', logLevel: 'info' } as const;

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
  ['AION_LOG_LEVEL', `pino log level, logs on stderr (default: ${DEFAULTS.logLevel})`],
];

export function readConfig(flags: ServeFlags = {}, env: Env = process.env): Config {
  const demo = flags.demo ?? false;
  return {
    host: flags.host ?? env.AION_HOST ?? SERVE_DEFAULTS.host,
    port: parsePort(flags.port ?? env.AION_PORT ?? SERVE_DEFAULTS.port),
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
    logLevel: nonEmpty(env.AION_LOG_LEVEL) ?? DEFAULTS.logLevel,
  };
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

function parseModel(env: Env, demo: boolean): Config['model'] {
  const model = nonEmpty(env.AION_MODEL);
  if (model === 'anthropic' || model === 'fake') return model;
  if (model !== null) throw new ConfigError(`AION_MODEL must be anthropic or fake; got ${model}`);
  if (nonEmpty(env.ANTHROPIC_API_KEY)) return 'anthropic';
  return demo ? 'fake' : null;
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
