// What a tool run is, as the executor and its callers see it: the
// invocation (who, through what, in what scope, with which restrictions), the
// response, a call admitted, a write proposed, and the run as the log and the
// metrics see it.
import type { Operator } from '../access/operators.js';
import type { AuditEntry } from '../domain/audit.js';
import type { Environment, ProjectAccess } from '../domain/projects.js';
import type { ErrorKind } from '../errors.js';
import type { Db } from '../store/db.js';
import type { Outcome, Via } from '../store/schema.js';
import type { ProposalRow, Tag, Tool, ToolResult } from './types.js';

export interface Invocation extends Restrictions {
  operator: Operator;
  via: Via;
  /** The caller's scope: what fills a `project` or `environment` the input leaves out. */
  scope?: { project?: string | null; environment?: string | null };
  threadId?: string | null;
  proposalId?: string | null;
  /**
   * Proposing mode: a write that passes every check is handed here instead of
   * running, and its answer is the call's result. Only a decision (a run with
   * a claim) runs a write for such a caller.
   */
  propose?: (write: ProposedWrite) => Promise<ToolResult> | ToolResult;
  /** Kept out of the log, still audited and counted: the demo's seeding, which says what it did in one line. */
  quiet?: boolean;
}

/** Who may see a tool, and run it: the restrictions of a connection. */
export interface Restrictions {
  /** Refuse every tool that changes anything (the shared buffer included). */
  readOnly?: boolean;
  /** Only these tools exist for this caller. */
  only?: ReadonlySet<string> | null;
  /** Only this environment may be acted in or read: a call that names another is refused. */
  onlyEnvironment?: string | null;
  /** The call comes from a conversation (of the invocation's `threadId`): the conversation tools exist for it. */
  conversation?: boolean;
  /** The HTTP request that made the call, to tie its log line to the request's. */
  requestId?: string;
  /**
   * Runs first in a write's transaction (before a decision's claim), for the
   * request that asked: throws WriteNotStarted when it no longer wants the
   * write (its client left, it waited too long), and claims what must commit
   * with the write (its Idempotency-Key).
   */
  beforeWrite?: BeforeWrite;
}

/** See Invocation.beforeWrite. */
export type BeforeWrite = (tx: Db) => Promise<void>;

export interface ToolCallResponse {
  tool: string;
  is_error: boolean;
  result: ToolResult;
}

/** A response, with the kind of failure kept for callers that map it to a status. */
export interface ToolOutcome extends ToolCallResponse {
  failure: ErrorKind | null;
  /** The change request opened instead of running the write (its environment requires two approvals). */
  changeRequest?: string;
}

/** A call that passed every check but running: the tool, its filled input, where it acts. */
export interface Admitted {
  tool: Tool;
  input: Record<string, unknown>;
  redacted: unknown;
  project: ProjectAccess | null;
  environment: Environment | null;
}

/** A write that passed every check, as a proposing caller gets it: the tool, its filled input, where it acts. */
export interface ProposedWrite {
  tool: Tool;
  input: Record<string, unknown>;
  project: ProjectAccess | null;
  environment: Environment | null;
  /** Where it acts (project, environment), then what the tool says of itself. */
  rows: ProposalRow[];
}

/** One tool run as the log and the metrics see it: who, what, where, how it ended, how long it took. Never its input. */
export interface ToolRun {
  reqId: string | null;
  operator: string;
  tool: string;
  via: Via;
  project: string | null;
  environment: string | null;
  outcome: Outcome;
  seconds: number;
  /** Counted, not logged (the invocation's `quiet`). */
  quiet: boolean;
}

/** An invocation being handled, with when it began. */
export type Call = Invocation & { startedAt: number };

/** An audit entry as the executor writes it: always an operator and a via. */
export type Entry = Required<Omit<AuditEntry, 'at'>> & { operator: string; via: Via };

/** What a write committed: its result and audit entry, and the change request it opened instead of running, if it did. */
export interface Written {
  result: ToolResult;
  entry: Entry;
  requested?: string;
}

export interface ToolDescriptor {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  permission: string | null;
  tag: Tag;
  allowed: boolean;
  /** Only for the tools that declare one (the conversation tools). */
  output_schema?: Record<string, unknown>;
  /** Only for the tools that edit the shared buffer. */
  edits_buffer?: true;
}

/** The write as a proposing caller gets it. */
export function proposedWrite({ tool, input, project, environment }: Admitted): ProposedWrite {
  // Where it acts comes first, as resolved, then what the tool says of itself.
  const where: ProposalRow[] = [
    ...(project ? [{ k: 'project', v: project.slug }] : []),
    ...(environment ? [{ k: 'environment', v: environment.name }] : []),
  ];
  return { tool, input, project, environment, rows: [...where, ...tool.rows(input)] };
}
