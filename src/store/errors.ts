// Recognising the database's own errors, the same from PGlite and node-postgres,
// and saying in one sentence why a store cannot be opened.
import { ConfigError, StartError } from '../config.js';
import { messageOf } from '../errors.js';

/** The SQLSTATE of a database error, or of what it wraps. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  // Drizzle wraps driver errors; the SQLSTATE sits on the cause.
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** Why the data folder cannot hold the embedded store; other errors pass through. */
export function dataFolderError(error: unknown, dataDir: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return new ConfigError(`the data folder ${dataDir} is a file, or lies inside one; pick a folder with --data`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ConfigError(`cannot write to the data folder ${dataDir}; give this user write access to it, or pick another --data`);
    default:
      return error;
  }
}

/** Why PostgreSQL at `url` cannot be used, in one sentence; errors of our own pass through. */
export function postgresStartError(error: unknown, url: string): unknown {
  if (error instanceof ConfigError || error instanceof StartError) return error;
  let where: { host: string; port: string; user: string; database: string };
  try {
    const parsed = new URL(url);
    where = {
      host: parsed.hostname || 'localhost',
      port: parsed.port || '5432',
      user: decodeURIComponent(parsed.username) || 'postgres',
      database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres',
    };
  } catch {
    return new ConfigError('DATABASE_URL is not a URL; write it like postgres://USER@HOST:5432/DATABASE');
  }
  const server = `PostgreSQL at ${where.host}:${where.port}`;
  const state = sqlState(error);
  if (state === '3D000') {
    return new StartError(
      `database ${where.database} does not exist on ${server}; create it with: createdb -h ${where.host} -p ${where.port} -U ${where.user} ${where.database}`,
    );
  }
  if (state === '28P01' || state === '28000') {
    return new StartError(`${server} refused user ${where.user}: ${messageOf(error)}; check DATABASE_URL`);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') {
    return new StartError(`cannot reach ${server} (${code}); is it running, and is DATABASE_URL right?`);
  }
  return new StartError(`${server} cannot be used: ${messageOf(error)}`);
}

