// Change requests (DESIGN.md §13): where a change to an environment that
// requires two approvals goes instead of running — the executor's desk — and
// what reads and decides them: the routes and the catalogue's tools.
import type { Operator } from '../access/operators.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { ChangeRequestDesk, RequestedChange } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import type { ChangeRequestResponse } from '../wire/change-request.js';
import { approveRequest } from './approving.js';
import { declineRequest, withdrawWaiting } from './declining.js';
import type { ChangeRequestDeps, Decider } from './deps.js';
import { expireDue, sweepEvery } from './expiry.js';
import { listRequests, viewRequest, type RequestFilter } from './listing.js';
import { openRequest } from './opening.js';
import { markStale, markStaleOnNotices } from './staleness.js';

export type { Decider } from './deps.js';
export type { RequestFilter } from './listing.js';

/** How often each server sweeps for expired requests: a quarter of their time, between a second and a minute. */
const sweepInterval = (ttlMs: number) => Math.min(60_000, Math.max(1_000, Math.floor(ttlMs / 4)));

export class ChangeRequests implements ChangeRequestDesk {
  private stopSweeping: (() => void) | null = null;
  private stopMarking: (() => void) | null = null;

  constructor(private readonly deps: ChangeRequestDeps) {}

  open(tx: Db, touch: (topic: Topic) => void, held: RequestedChange): Promise<ToolResult> {
    return openRequest(this.deps, tx, touch, held);
  }

  list(operator: Operator, filter: RequestFilter): Promise<ChangeRequestResponse[]> {
    return listRequests(this.deps, operator, filter);
  }

  view(operator: Operator, id: string): Promise<ChangeRequestResponse> {
    return viewRequest(this.deps, operator, id);
  }

  async approve(by: Decider, id: string, comment: string | null, seen?: string): Promise<ChangeRequestResponse> {
    await approveRequest(this.deps, by, id, comment, seen);
    return this.view(by.operator, id);
  }

  async decline(by: Decider, id: string, comment: string): Promise<ChangeRequestResponse> {
    await declineRequest(this.deps, by, id, comment);
    return this.view(by.operator, id);
  }

  /**
   * Inside the transaction that rejects a proposal or deletes a thread: withdraws
   * the change requests waiting for them; they are counted once it commits.
   */
  withdrawWaiting(tx: Db, touch: (topic: Topic) => void, of: { proposal: string } | { thread: string }, by: Decider, comment: string): Promise<number> {
    return withdrawWaiting(this.deps, tx, touch, of, by, comment);
  }

  /** Counts requests withdrawn by a transaction that committed. */
  withdrawn(count: number): void {
    for (let i = 0; i < count; i++) this.deps.metrics.changeRequest('withdrawn');
  }

  /** Expires what is due now, then every little while; marks stale what moved, now and as the notices say. */
  async start(log: (error: unknown) => void): Promise<void> {
    await expireDue(this.deps);
    this.stopSweeping = sweepEvery(this.deps, sweepInterval(this.deps.ttlMs), log);
    this.stopMarking = markStaleOnNotices(this.deps, log);
    await markStale(this.deps, ['*']);
  }

  close(): void {
    this.stopSweeping?.();
    this.stopMarking?.();
  }
}
