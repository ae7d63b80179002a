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

export class ConfigError extends Error {}

export function readConfig(flags: ServeFlags = {}, env: Env = process.env): Config {
  const demo = flags.demo ?? false;
  return {
    host: flags.host ?? env.AION_HOST ?? '127.0.0.1',
    port: parsePort(flags.port ?? env.AION_PORT ?? '8080'),
    dataDir: path.resolve(flags.data ?? env.AION_DATA ?? '.aion'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    demo,
    adminToken: nonEmpty(env.AION_ADMIN_TOKEN),
    secretKey: nonEmpty(env.AION_SECRET_KEY),
    model: parseModel(env, demo),
    anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
    anthropicModel: nonEmpty(env.AION_ANTHROPIC_MODEL) ?? 'claude-sonnet-4-5',
    anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    assistantRate: parseRate(env.AION_ASSISTANT_RATE ?? '30/5m'),
    contextTokens: parsePositiveInt('AION_CONTEXT_TOKENS', env.AION_CONTEXT_TOKENS ?? '60000'),
    metricsToken: nonEmpty(env.AION_METRICS_TOKEN),
    logLevel: nonEmpty(env.AION_LOG_LEVEL) ?? 'info',
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
