// What the change requests' parts share: the store and its notices, the
// project directory, the audit log, the secret box, the metrics, the time a
// request lives, and the executor an approved change runs through.
import type { Operator } from '../access/operators.js';
import type { AuditEntry, AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { SecretBox } from '../domain/secret-box.js';
import type { Metrics } from '../metrics.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Via } from '../store/schema.js';
import type { Executor } from '../tools/executor.js';
import type { StoredRequest } from './records.js';

export interface ChangeRequestDeps {
  db: Db;
  changes: Changes;
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
  metrics: Metrics;
  /** A request nobody decided within this long expires. */
  ttlMs: number;
  /** The executor approved changes run through; it is made after this service, which is its desk. */
  executor: () => Executor;
}

/** Who decides, and how they came. */
export interface Decider {
  operator: Operator;
  via: Via;
}

/** A step of a request, as the audit log keeps it: named, in the request's project and environment. */
export function stepEntry(name: string, stored: StoredRequest, by: Decider | null, input: Record<string, unknown>): AuditEntry {
  return {
    operator: by?.operator.name ?? null,
    via: by?.via ?? stored.request.via,
    tool: name,
    project: stored.project,
    environment: stored.environment,
    threadId: stored.request.threadId,
    proposalId: stored.request.proposalId,
    outcome: 'ok',
    input: { change_request: stored.request.id, ...input },
    error: null,
  };
}
