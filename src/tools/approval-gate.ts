// The approval gate: a write to an environment that requires approvals runs
// for nobody alone. Under the environment's lock, in the write's transaction,
// the gate reads how many people's word it needs; above one, the write becomes
// a change request (the desk, src/change-requests, records it) instead of
// running (DESIGN.md §13).
import { randomUUID } from 'node:crypto';
import type { Operator } from '../access/operators.js';
import { lockEnvironment } from '../domain/environment-lock.js';
import type { Environment, ProjectAccess } from '../domain/projects.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Via } from '../store/schema.js';
import type { Batch, LockTaken } from './batch.js';
import { proposedWrite, type Admitted, type Invocation } from './invocation.js';
import type { ProposalRow, Tool, ToolResult } from './types.js';

/** Where a write goes instead of running when its environment requires two approvals (src/change-requests). */
export interface ChangeRequestDesk {
  /** Records the request in `tx`; answers the call's result, which names it. */
  open(tx: Db, touch: (topic: Topic) => void, change: RequestedChange): Promise<ToolResult>;
}

/** A write held for a second operator: what would run, who asked, where. */
export interface RequestedChange {
  id: string;
  operator: Operator;
  via: Via;
  tool: Tool;
  /** As it would run, secret values included: the desk seals them. */
  input: Record<string, unknown>;
  /** The input as the audit keeps it. */
  redacted: unknown;
  project: ProjectAccess;
  environment: Environment;
  rows: ProposalRow[];
  threadId: string | null;
  proposalId: string | null;
  /** The environment's rule under its lock: how many people's word the change needs. */
  approvalsRequired: number;
}

/** Where a write is held for approvals, and how many people's word it needs there. */
export interface Held {
  project: ProjectAccess;
  environment: Environment;
  approvalsRequired: number;
}

/** How the audit names the opening of a change request: a write held, not run. */
export const CHANGE_REQUEST_OPENED = 'change_request:open';

/**
 * Where a write would act when that environment requires two approvals
 * (read under its lock in the write's transaction, so a change of the rule
 * on another server is never missed); null when it may run. In a batch, the
 * lock its transaction holds already answers, and a lock taken here is told
 * to `took`, for the batch to keep once the savepoint is kept.
 */
export async function heldFor(admitted: Admitted, tx: Db, batch?: Batch, took?: (taken: LockTaken) => void): Promise<Held | null> {
  const { tool, project, environment } = admitted;
  if (tool.tag !== 'write' || !project || !environment) return null;
  let protection = batch?.protection(environment.id);
  if (!protection) {
    const mark = batch?.mark ?? 0;
    protection = await lockEnvironment(tx, environment);
    took?.({ environmentId: environment.id, protection, mark });
  }
  return protection.approvalsRequired > 1 ? { project, environment, approvalsRequired: protection.approvalsRequired } : null;
}

/** Opens a change request for the write instead of running it, in `tx`: its id, and the result that names it. */
export async function openChangeRequest(
  desk: ChangeRequestDesk,
  invocation: Invocation,
  admitted: Admitted,
  { project, environment, approvalsRequired }: Held,
  tx: Db,
  touch: (topic: Topic) => void,
): Promise<{ id: string; result: ToolResult }> {
  const { tool, input, redacted } = admitted;
  const id = randomUUID();
  const { threadId = null, proposalId = null } = invocation;
  const result = await desk.open(tx, touch, {
    id,
    operator: invocation.operator,
    via: invocation.via,
    tool,
    input,
    redacted,
    project,
    environment,
    rows: proposedWrite(admitted).rows,
    threadId,
    proposalId,
    approvalsRequired,
  });
  return { id, result };
}
