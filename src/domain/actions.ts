// Actions outside the tool catalogue — creating a project, an operator or a
// token, revoking a token, deleting a thread, rejecting a proposal, minting a
// session credential — take one path, as a tool's write does in the executor:
// the permission checked first (a refusal is audited and answers 403), the
// effect and its audit entry committed in one transaction with the caller's
// via, and a failure audited with its sentence.
import type { Operator } from '../access/operators.js';
import { AppError, forbidden } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Outcome, Via } from '../store/schema.js';
import type { AuditEntry, AuditLog } from './audit.js';

/** Who acts, and how they came (REST, the console, MCP). */
export interface Actor {
  operator: Operator;
  via: Via;
}

export interface Action<T> {
  /** As the audit log names it: `project:create`, `token:revoke`, … */
  name: string;
  project?: string | null;
  environment?: string | null;
  threadId?: string | null;
  proposalId?: string | null;
  /** What the audit records of the input: never a secret. */
  input: Record<string, unknown>;
  /** Why the actor may not do it, as a sentence; null when they may. */
  refusal: string | null;
  run(tx: Db, touch: (topic: Topic) => void): Promise<T>;
  /** What the entry adds once the action ran: the id of what it made. */
  made?(value: T): Record<string, unknown>;
}

export interface ActionDeps {
  db: Db;
  changes: Changes;
  audit: AuditLog;
}

export async function perform<T>(deps: ActionDeps, actor: Actor, action: Action<T>): Promise<T> {
  const entry = (outcome: Outcome, input: Record<string, unknown>, error: string | null): AuditEntry => ({
    operator: actor.operator.name,
    via: actor.via,
    tool: action.name,
    project: action.project ?? null,
    environment: action.environment ?? null,
    threadId: action.threadId ?? null,
    proposalId: action.proposalId ?? null,
    outcome,
    input,
    error,
  });
  if (action.refusal) {
    deps.audit.record(entry('refused', action.input, action.refusal));
    throw forbidden(action.refusal);
  }
  try {
    return await deps.changes.transaction(deps.db, async (tx, touch) => {
      const value = await action.run(tx, touch);
      await deps.audit.write(tx, entry('ok', { ...action.input, ...action.made?.(value) }, null));
      return value;
    });
  } catch (error) {
    // What is not ours to word (a store failure) is logged by the error mapping; the entry says only that it failed.
    deps.audit.record(entry('error', action.input, error instanceof AppError ? error.message : 'failed unexpectedly'));
    throw error;
  }
}
