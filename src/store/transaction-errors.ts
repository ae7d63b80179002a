// What the database says when it cut or refused a transaction (DESIGN §14):
// a deadlock or serialization failure is retried whole at the transaction's
// boundary; a lock wait, a statement or an idle transaction past its limit is
// a 503 that says the change was not made. Apart from the PostgreSQL client,
// so code that runs on the embedded store can recognise them too.
import { sqlState } from './errors.js';
import { CONTENDED, IDLE_CUT, LOCK_WAIT_CUT, STATEMENT_CUT, StoreUnreachable, storeUnreachable } from './unreachable.js';

/** Deadlock detected, could not serialize access. */
const CONFLICTS = new Set(['40P01', '40001']);
/** SQLSTATE 25P03: idle_in_transaction_session_timeout ended the session. */
export const IDLE_IN_TRANSACTION_ENDED = '25P03';
const CUTS: Record<string, string> = { '55P03': LOCK_WAIT_CUT, '57014': STATEMENT_CUT, [IDLE_IN_TRANSACTION_ENDED]: IDLE_CUT };

/** The SQLSTATE of `error`, unless it was decided already (a StoreUnreachable is final). */
function stateOf(error: unknown): string | undefined {
  return storeUnreachable(error) ? undefined : sqlState(error);
}

/** Whether `error` is a deadlock or a serialization failure: the transaction rolled back whole and may simply run again. */
export function isRetriedConflict(error: unknown): boolean {
  const state = stateOf(error);
  return state !== undefined && CONFLICTS.has(state);
}

/** The 503 for a transaction the database cut at one of its limits, or null. */
export function transactionCut(error: unknown): StoreUnreachable | null {
  const state = stateOf(error);
  const sentence = state === undefined ? undefined : CUTS[state];
  return sentence === undefined ? null : new StoreUnreachable(sentence, error);
}

/** The 503 once conflicts keep coming back. */
export function contended(error: unknown): StoreUnreachable {
  return new StoreUnreachable(CONTENDED, error);
}
