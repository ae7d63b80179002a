// A dropped connection to PostgreSQL (a restart, a failover,
// pg_terminate_backend, a reset socket) costs no request: a statement or a
// whole transaction that failed because its connection broke runs again on a
// fresh one, a few times with a short pause; if the database stays out of
// reach, StoreUnreachable (503) says so. Other errors are never retried.
//
// Why running again is safe: a transaction whose COMMIT was not yet sent
// cannot have committed, and PostgreSQL rolls back what a broken connection
// left open. A COMMIT whose answer is lost may have committed, so it is not
// repeated (a deploy or a write would land twice, or a revocation answer 404):
// the caller is told that the change may have been made. A statement outside
// a transaction is its own commit; those are reads or writes that may land
// twice (stamps, clean-ups, usage rows), so they run again — a write that must
// not land twice belongs in a transaction.
//
// This is also the one boundary where transactions open, so it is where a
// deadlock or a serialization failure (the whole transaction rolled back) runs
// again, a few times after a short random pause; and where a transaction the
// database cut at a limit (transaction-errors.ts) becomes a 503 that says it
// was not made: never retried, since the limits exist to answer quickly.
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './db.js';
import * as schema from './schema.js';
import { sqlState } from './errors.js';
import { contended, IDLE_IN_TRANSACTION_ENDED, isRetriedConflict, transactionCut } from './transaction-errors.js';
import { COMMIT_UNKNOWN, IDLE_CUT, StoreUnreachable, UNREACHABLE } from './unreachable.js';

const TRIES = 4;
/** The pause before the second try; it grows fourfold per try (25, 100, 400 ms). */
const FIRST_PAUSE_MS = 25;
/** Tries of a transaction that deadlocked or failed to serialize, in all. */
const CONFLICT_TRIES = 5;
/** The longest pause before the second of those tries; it doubles per try, and each pause is random up to it (so two victims do not collide again). */
const FIRST_CONFLICT_PAUSE_MS = 20;
/** Connecting failed: nothing was sent, so trying again is always safe, whatever the server answered. */
class NotConnected extends Error {}

// Class 08 (connection exception) and the server going away: shut down (57P01,
// 57P02), not accepting connections yet (57P03), an idle session ended (57P05).
const BROKEN_STATE = /^(08...|57P0[1235])$/;
const BROKEN_SOCKET = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// node-postgres says these in words only.
const BROKEN_CLIENT = /^Connection terminated|is not queryable$/;

/** Whether `error` (or what it wraps: Drizzle wraps the driver's) says the connection broke and trying again may help. */
function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof NotConnected) return true;
    // Decided already: not to be tried again.
    if (current instanceof StoreUnreachable) return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (BROKEN_STATE.test(code) || BROKEN_SOCKET.has(code))) return true;
    if (BROKEN_CLIENT.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Drizzle over `pool`, every statement and transaction of it tried again on
 * a fresh connection when its own broke. Drizzle calls the pool's `query`
 * outside transactions, with a query config and its values; that is the one
 * form the pool answers from now on.
 */
export function reconnectingDb(pool: pg.Pool): Db {
  const onConnection = async <T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect().catch((error: unknown) => {
      throw new NotConnected('could not connect to the database', { cause: error });
    });
    // A checked-out connection that breaks says so as an 'error' event too,
    // which unheard would end the process; its statement fails with it anyway.
    // The event may be all that says why: the database ended an idle transaction.
    let heard: unknown = null;
    // The first says why; the socket's end follows it.
    const hear = (error: unknown) => (heard ??= error);
    client.on('error', hear);
    let broken = false;
    try {
      return await run(client);
    } catch (error) {
      broken = isConnectionError(error);
      // Its server stalled mid-transaction and the database ended it: not made, whatever the commit's fate looked like.
      if (sqlState(error) === IDLE_IN_TRANSACTION_ENDED || sqlState(heard) === IDLE_IN_TRANSACTION_ENDED) {
        broken = true;
        throw new StoreUnreachable(IDLE_CUT, error);
      }
      throw error;
    } finally {
      client.off('error', hear);
      // A broken connection leaves the pool; a healthy one goes back.
      client.release(broken);
    }
  };

  pool.query = ((config: pg.QueryConfig, values?: unknown[]) =>
    retried(() => onConnection((client) => client.query(config, values)))) as pg.Pool['query'];

  // Each pooled connection gets its Drizzle once, so a transaction checks out,
  // gives back and drops its connection here (Drizzle's own checkout keeps a
  // connection whose BEGIN failed out of the pool for good).
  const drizzles = new WeakMap<pg.PoolClient, Db>();
  const drizzleOf = (client: pg.PoolClient): Db => {
    let known = drizzles.get(client);
    if (!known) {
      known = drizzle(client, { schema }) as unknown as Db;
      drizzles.set(client, known);
    }
    return known;
  };

  const db = drizzle(pool, { schema }) as unknown as Db;
  const transaction: Db['transaction'] = (work, config) =>
    retried(() =>
      onConnection(async (client) => {
        let committing = false;
        try {
          return await drizzleOf(client).transaction(async (tx) => {
            const value = await work(tx);
            committing = true;
            return value;
          }, config);
        } catch (error) {
          if (committing && isConnectionError(error)) throw new StoreUnreachable(COMMIT_UNKNOWN, error);
          throw error;
        }
      }),
    );
  db.transaction = transaction;
  return db;
}

/**
 * Runs `attempt` again while it fails because its connection broke (at most
 * TRIES times in all) or because it deadlocked or failed to serialize (at most
 * CONFLICT_TRIES); a transaction cut at a limit is a 503 at once.
 */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  let broken = 0;
  let conflicts = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (isConnectionError(error)) {
        if (++broken === TRIES) throw new StoreUnreachable(UNREACHABLE, error);
        // The pause also lets the pool hear of its other broken connections before the next try.
        await pause(FIRST_PAUSE_MS * 4 ** (broken - 1));
      } else if (isRetriedConflict(error)) {
        if (++conflicts === CONFLICT_TRIES) throw contended(error);
        await pause(Math.random() * FIRST_CONFLICT_PAUSE_MS * 2 ** (conflicts - 1));
      } else throw transactionCut(error) ?? error;
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
