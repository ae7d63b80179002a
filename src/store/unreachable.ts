// The store out of reach (a 503): what the HTTP layer recognises, apart from
// the PostgreSQL client that raises it, so a server on the embedded store
// never loads that client.
import { AppError } from '../errors.js';

/** What a client told StoreUnreachable may wait before asking again. */
const RETRY_AFTER_SECONDS = 2;

export const UNREACHABLE = 'the database cannot be reached right now; try again in a few seconds (if this lasts, check that PostgreSQL is up)';
export const COMMIT_UNKNOWN =
  'the connection to the database broke while this change was being committed, so it may or may not have been made; look at the current state before you repeat it';

/** The store cannot answer now: its connection broke and fresh ones failed too, or a commit's outcome is unknown. A 503. */
export class StoreUnreachable extends AppError {
  constructor(message: string, cause: unknown) {
    super('unavailable', message, message === UNREACHABLE ? RETRY_AFTER_SECONDS : undefined);
    this.cause = cause;
  }
}

/** The StoreUnreachable behind `error` (Drizzle wraps what a statement throws in an error of its own), or null. */
export function storeUnreachable(error: unknown): StoreUnreachable | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof StoreUnreachable) return current;
    current = current.cause;
  }
  return null;
}
