// Accept-all and an approval decide inside one enclosing transaction: a
// savepoint per decision, the gate's lock held once per batch, and the audit
// entries of the decisions kept written together when the batch ends.
import type { AuditEntry } from '../domain/audit.js';
import type { Protection } from '../domain/projects.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';

/**
 * An enclosing transaction several decisions run in, one savepoint each: a
 * failing one rolls back to its savepoint, the ones before it stay. After a
 * decision changed what the project directory holds, the next ones resolve
 * their project through the transaction, not from memory. Made by
 * `inBatch` (through `Executor.batch`), which writes the audit entries of the
 * decisions kept in one insert when the batch ends, still in its transaction.
 *
 * The gate's lock on an environment is taken once per batch: a kept savepoint
 * that took it leaves it held by the enclosing transaction until it ends, so
 * how the environment is protected, read under it, holds for every later
 * decision — unless a decision of the batch itself changed a project's shape
 * (which is how a change of protection is announced): then it is read again.
 * Only its type is exported: a batch made elsewhere would never write its entries.
 */
class Batch {
  /** A decision of this batch changed what the project directory holds. */
  fresh = false;
  /** The environments this transaction holds locked (a kept savepoint took the lock), with their protection as read under it. */
  private readonly locked = new Map<string, Protection>();
  /** Bumped by every change of a project's shape in this batch: a protection read before one is not kept. */
  private shape = 0;
  /** The audit entries of the decisions kept (their savepoints released), in order, with when each ran. */
  readonly entries: AuditEntry[] = [];

  constructor(
    readonly tx: Db,
    private readonly announce: (topic: Topic) => void,
  ) {}

  touch(topic: Topic): void {
    // Only a change of the project itself (roles, environments) makes memory stale for the rest of the batch;
    // an environment's deploys and secrets are not what resolving a proposal reads.
    if (topic === '*' || topic.startsWith('project:')) {
      this.fresh = true;
      this.shape++;
      this.locked.clear();
    }
    this.announce(topic);
  }

  /** How the environment is protected, if this transaction holds it locked already; else the caller locks it. */
  protection(environmentId: string): Protection | undefined {
    return this.locked.get(environmentId);
  }

  /** Where the next read under a lock stands: a change of shape after it makes that read stale. */
  get mark(): number {
    return this.shape;
  }

  /** A decision's savepoint was kept: its audit entry is the batch's to write, and a lock it took (at `mark`) holds until the batch ends. */
  keep(entry: AuditEntry, taken: LockTaken | undefined): void {
    this.entries.push(entry);
    if (taken?.mark === this.shape) this.locked.set(taken.environmentId, taken.protection);
  }
}

export type { Batch };

/** The gate's lock, taken in a decision's savepoint: kept by its batch once the savepoint is. */
export interface LockTaken {
  environmentId: string;
  protection: Protection;
  mark: number;
}

/**
 * Runs `work` with a batch in `tx` (a transaction whose `touch` is given):
 * the decisions handed the batch run in a savepoint each, and `writeAll`
 * writes the audit entries of those kept together once `work` ends, in `tx`.
 */
export async function inBatch<T>(
  tx: Db,
  touch: (topic: Topic) => void,
  writeAll: (tx: Db, entries: readonly AuditEntry[]) => Promise<void>,
  work: (batch: Batch) => Promise<T>,
): Promise<T> {
  const batch = new Batch(tx, touch);
  const value = await work(batch);
  await writeAll(tx, batch.entries);
  return value;
}
