// The store out of reach (a 503): what the HTTP layer recognises, apart from
// the PostgreSQL client that raises it, so a server on the embedded store
// never loads that client.
import { AppError } from '../errors.js';

/** What a client told StoreUnreachable may wait before asking again. */
const RETRY_AFTER_SECONDS = 2;

export const UNREACHABLE = 'the database cannot be reached right now; try again in a few seconds (if this lasts, check that PostgreSQL is up)';
/** The database cut this change's transaction (DESIGN §14): each says it was not made. */
export const LOCK_WAIT_CUT =
  'this change waited too long for another change to the same data (a server may have stalled) and was not made; try again in a few seconds';
export const STATEMENT_CUT = 'the database stopped this request because it ran too long; no change was made; try again in a few seconds';
export const IDLE_CUT =
  'this server paused in the middle of this change for longer than the database allows, so the database ended it: the change was not made; try again';
export const CONTENDED =
  'this change kept colliding with changes made at the same moment (a deadlock or a serialization failure) and was not made; try again in a few seconds';
export const COMMIT_UNKNOWN =
  'the connection to the database broke while this change was being committed, so it may or may not have been made; look at the current state before you repeat it';

/**
 * The store cannot answer now: its connection broke and fresh ones failed too,
 * a commit's outcome is unknown, or the database cut the transaction. A 503;
 * all but the unknown commit may simply be asked again.
 */
export class StoreUnreachable extends AppError {
  constructor(message: string, cause: unknown) {
    super('unavailable', message, message === COMMIT_UNKNOWN ? undefined : RETRY_AFTER_SECONDS);
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
