// The decisions that run a write: accepting a proposal (held where the
// environment requires approvals) and approving a change request. Each claims
// first, in the write's transaction; `Executor.run` with one of them runs it.
import type { Db } from '../store/db.js';
import type { Batch } from './batch.js';
import type { ToolOutcome } from './invocation.js';
import type { ToolResult } from './types.js';

/**
 * A decision that runs a write: `claim` runs first inside the write's
 * transaction and answers why it cannot claim (someone else decided it, it is
 * no longer executable), or null; then nothing runs and `run` throws a
 * conflict with that sentence. After the claim the call is admitted (the
 * permission checked again, as the invocation's operator), run, and `settle`
 * stores the result in the same transaction.
 */
export interface Deciding {
  claim: (tx: Db) => Promise<string | null>;
  settle: (tx: Db, result: ToolResult) => Promise<void>;
  /** Decide inside this enclosing transaction (accept-all, an approval), in a savepoint of its own. */
  batch?: Batch;
}

/**
 * Accepting a proposal. Where the write's environment requires two approvals
 * it does not run: a change request is opened, and `hold` (after the claim, in
 * the same transaction) leaves the proposal waiting on it instead of decided.
 */
export interface Accepting extends Deciding {
  hold: (tx: Db, changeRequest: string) => Promise<void>;
}

/** A second operator's approval of a change request (its id): the write runs, as its requester. */
export interface Approving extends Deciding {
  approves: string;
}

export type Decision = Accepting | Approving;

/** A claim that could not be taken, with why. */
export class ClaimLost extends Error {}

/** A decision whose call was not admitted (refused, failed to resolve): its claim rolls back. */
export class NotAdmitted extends Error {
  constructor(readonly outcome: ToolOutcome) {
    super(String(outcome.result.error));
  }
}
