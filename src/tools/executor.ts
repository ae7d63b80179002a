// The executor: the one path every tool run takes, whoever calls — look up,
// validate, fill scope, resolve project and environment, authorize with
// can(), run (a write in one transaction with its audit entry), audit. A
// refusal or failure is a result with is_error, never an exception; only an
// unknown tool (not_found), input that misses its schema (invalid) and a
// decision that lost its claim (conflict) throw, so REST can answer 404, 422
// and 409. A caller that proposes (the assistant, a session credential) says
// so in its invocation: then a write never runs, it is handed to `propose`,
// and only an accept — a run with a claim — runs it. A write to an
// environment that requires two approvals runs for nobody alone: it becomes a
// change request (the desk records it), and runs only when a second operator
// approves it — a decision that `approves` it (DESIGN.md §13).
import { randomUUID } from 'node:crypto';
import { can, ENVIRONMENT_PERMISSIONS, refusal } from '../access/can.js';
import type { Operator } from '../access/operators.js';
import type { AuditEntry } from '../domain/audit.js';
import { lockEnvironment } from '../domain/environment-lock.js';
import { findEnvironment, type Environment, type ProjectAccess, type Protection } from '../domain/projects.js';
import { AppError, conflict, invalid, notFound, WriteNotStarted, type ErrorKind } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isRetriedConflict, transactionCut } from '../store/transaction-errors.js';
import type { Outcome, Via } from '../store/schema.js';
import { ajvOnFirstUse, compileAtTheEdge, type Validate } from '../validation/ajv.js';
import { assertSecretsDeclared } from './secret-fields.js';
import type { ToolServices } from './services.js';
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
interface Admitted {
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

/**
 * A decision that runs a write: `claim` runs first inside the write's
 * transaction and answers why it cannot claim (someone else decided it, it is
 * no longer executable), or null; then nothing runs and `run` throws a
 * conflict with that sentence. After the claim the call is admitted (the
 * permission checked again, as the invocation's operator), run, and `settle`
 * stores the result in the same transaction.
 */
interface Deciding {
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
interface Held {
  project: ProjectAccess;
  environment: Environment;
  approvalsRequired: number;
}

/** How the audit names the opening of a change request: a write held, not run. */
export const CHANGE_REQUEST_OPENED = 'change_request:open';

/**
 * An enclosing transaction several decisions run in, one savepoint each: a
 * failing one rolls back to its savepoint, the ones before it stay. After a
 * decision changed what the project directory holds, the next ones resolve
 * their project through the transaction, not from memory. Made by
 * `Executor.batch`, which writes the audit entries of the decisions kept in
 * one insert when the batch ends, still in its transaction.
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
interface LockTaken {
  environmentId: string;
  protection: Protection;
  mark: number;
}

/** A claim that could not be taken, with why. */
class ClaimLost extends Error {}

/** A decision whose call was not admitted (refused, failed to resolve): its claim rolls back. */
class NotAdmitted extends Error {
  constructor(readonly outcome: ToolOutcome) {
    super(String(outcome.result.error));
  }
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
type Call = Invocation & { startedAt: number };

/** An audit entry as the executor writes it: always an operator and a via. */
type Entry = Required<Omit<AuditEntry, 'at'>> & { operator: string; via: Via };

/** What a write committed: its result and audit entry, and the change request it opened instead of running, if it did. */
interface Written {
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

export interface ExecutorDeps {
  db: Db;
  changes: Changes;
  services: ToolServices;
  requests: ChangeRequestDesk;
  log: (error: unknown, message: string) => void;
  /** Told of every run once it is audited (a write: once it committed). */
  observe: (run: ToolRun) => void;
}

const REDACTED = '[redacted]';

/** Why the assistant, or an agent with a session credential, may not decide a change request. */
const PERSONAL_ACT =
  "decides a change request, which is a person's act: approve or decline it with your own token (the console, the REST API or your MCP client), never through the assistant or a session credential";

export class Executor {
  private readonly tools = new Map<string, { tool: Tool; validate: Validate }>();

  constructor(
    catalogue: readonly Tool[],
    private readonly deps: ExecutorDeps,
  ) {
    assertSecretsDeclared(catalogue);
    const ajv = ajvOnFirstUse();
    for (const tool of catalogue) this.tools.set(tool.name, { tool, validate: compileAtTheEdge(ajv, tool.input_schema) });
  }

  catalogue(): Tool[] {
    return [...this.tools.values()].map((entry) => entry.tool);
  }

  /**
   * Runs `work` with a batch in `tx` (a transaction of `changes`, whose
   * `touch` it is): the decisions handed the batch run in a savepoint each,
   * and the audit entries of those kept are written together once `work`
   * ends, in `tx`.
   */
  async batch<T>(tx: Db, touch: (topic: Topic) => void, work: (batch: Batch) => Promise<T>): Promise<T> {
    const batch = new Batch(tx, touch);
    const value = await work(batch);
    await this.deps.services.audit.writeAll(tx, batch.entries);
    return value;
  }

  /**
   * Every tool that exists for the caller, with whether the operator could
   * run it where `where` points (advisory); the conversation tools only for a
   * conversation. A filtered-out tool does not exist; on a read-only
   * connection neither does one that changes anything. `where` is also the
   * caller's scope, which fills a `project` or `environment` left out, unless
   * `scopeFills` is false (the REST route fills nothing): then the published
   * schema requires what the tool needs. A caller that proposes its writes
   * (`proposing`) is allowed no tool that decides a change request.
   */
  async describe(
    operator: Operator,
    where: { project?: string | null; environment?: string | null },
    options: Restrictions & { scopeFills?: boolean; proposing?: boolean } = {},
  ): Promise<ToolDescriptor[]> {
    const projects = await this.projectsWhere(operator, where.project);
    const fills = options.scopeFills === false ? {} : where;
    const visible = this.catalogue().filter(
      (tool) =>
        (tool.audience === 'public' || options.conversation) &&
        (!options.only || options.only.has(tool.name)) &&
        !(options.readOnly && changesSomething(tool)),
    );
    return visible.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: publishedSchema(tool, fills),
      permission: tool.permission,
      tag: tool.tag,
      allowed:
        !(tool.decides && options.proposing) &&
        (tool.decides
          ? projects.some(mayDecideIn)
          : tool.scope === 'none' || projects.some((project) => this.allowedIn(tool, project, where.environment))),
      ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
      ...(tool.editsSharedBuffer ? { edits_buffer: true as const } : {}),
    }));
  }

  /** The project named, if the operator has it; with none named, every project the operator has. */
  private async projectsWhere(operator: Operator, slug: string | null | undefined): Promise<ProjectAccess[]> {
    const slugs = slug ? [slug] : await this.deps.services.projects.visibleSlugs(operator);
    const found = await Promise.all(slugs.map((one) => this.deps.services.projects.find(operator, one)));
    return found.filter((project): project is ProjectAccess => project !== null);
  }

  /** Whether the tool could run in this project, and in the environment named (an unknown one allows no tool that takes one). */
  private allowedIn(tool: Tool, project: ProjectAccess, environmentName: string | null | undefined): boolean {
    if (!environmentName) return this.permits(tool, project, null);
    const environment = project.environments.find((e) => e.name === environmentName) ?? null;
    if (!environment && tool.scope !== 'project') return false;
    return this.permits(tool, project, environment);
  }

  /**
   * Runs a tool; a write of a proposing caller is proposed instead. With a
   * decision, runs a proposal's write (see Decision).
   */
  async run(invocation: Invocation, name: string, input: unknown, decision?: Decision): Promise<ToolOutcome> {
    const call: Call = { ...invocation, startedAt: performance.now() };
    if (decision) return this.decide(call, name, input, decision);
    const admitted = await this.admit(call, name, input);
    if ('is_error' in admitted) return admitted;
    if (call.propose && admitted.tool.tag === 'write') {
      const result = await call.propose(proposedWrite(admitted));
      return { tool: name, is_error: false, result, failure: null };
    }
    return this.execute(call, admitted);
  }

  /** Look up, validate, fill scope, resolve, authorize. Throws for an unknown tool or input off its schema. */
  private async admit(
    invocation: Call,
    name: string,
    input: unknown,
    within?: { tx: Db; fresh: boolean },
  ): Promise<Admitted | ToolOutcome> {
    const entry = this.tools.get(name);
    const hidden = entry?.tool.audience === 'conversation' && !(invocation.conversation && invocation.threadId);
    if (!entry || hidden || (invocation.only && !invocation.only.has(name))) {
      throw notFound(`no such tool: ${name}; GET /api/v1/assistant/tools lists them`);
    }
    const { tool, validate } = entry;
    if (!validate(input)) {
      const error = validate.errors?.[0];
      const where = error?.instancePath ? `input${error.instancePath.replaceAll('/', '.')}` : 'input';
      const sentence =
        error?.keyword === 'additionalProperties'
          ? `${where} has an unknown property ${(error.params as { additionalProperty?: string }).additionalProperty}; remove it`
          : `${where} ${error?.message ?? 'does not match the schema'}`;
      this.audit(invocation, tool, redact(tool, input), null, null, 'error', sentence);
      throw invalid(`${name}: ${sentence}`);
    }
    const filled = this.fillScope(tool, invocation, input as Record<string, unknown>);
    const redacted = redact(tool, filled);
    const missing = missingScope(tool, filled);
    if (missing) {
      this.audit(invocation, tool, redacted, null, null, 'error', missing);
      throw invalid(`${name}: ${missing}`);
    }

    let project: ProjectAccess | null = null;
    let environment: Environment | null = null;
    try {
      ({ project, environment } = await this.resolve(tool, invocation.operator, filled, within));
    } catch (error) {
      return this.fail(invocation, tool, redacted, project, environment, error);
    }
    if (invocation.onlyEnvironment && environment && environment.name !== invocation.onlyEnvironment) {
      const fence = `this connection is fenced to the environment ${invocation.onlyEnvironment}`;
      return this.refuse(invocation, tool, redacted, project, environment, `${name} names the environment ${environment.name}, and ${fence}`);
    }
    if (invocation.readOnly && changesSomething(tool)) {
      const what = tool.tag === 'write' ? 'a write tool' : "a tool that changes the operator's editor";
      return this.refuse(invocation, tool, redacted, project, environment, `${name} is ${what}, and this connection is read-only`);
    }
    if (tool.decides && (invocation.propose || invocation.conversation || invocation.via === 'assistant')) {
      return this.refuse(invocation, tool, redacted, project, environment, `${name} ${PERSONAL_ACT}`);
    }
    if (project && !this.permits(tool, project, environment)) {
      const permission = tool.permission ?? 'project:read';
      return this.refuse(invocation, tool, redacted, project, environment, refusal(project.role, permission, project.slug, environment));
    }
    return { tool, input: filled, redacted, project, environment };
  }

  private async execute(invocation: Call, admitted: Admitted): Promise<ToolOutcome> {
    const { tool, input, redacted, project, environment } = admitted;
    try {
      if (tool.tag === 'read' || tool.decides) {
        // A decision opens its own write transaction: the request is asked just before.
        if (tool.decides) await invocation.beforeWrite?.(this.deps.db);
        const result = await tool.run(this.context(invocation, admitted, this.deps.db), input);
        // A decision wrote its entry in its own transaction, naming the change request's project.
        if (tool.decides) this.observe(invocation, this.entry(invocation, tool.name, redacted, project, environment, 'ok', null));
        else this.audit(invocation, tool, redacted, project, environment, 'ok', null);
        return { tool: tool.name, is_error: false, result, failure: null };
      }
      const { result, entry, requested } = await this.deps.changes.transaction(this.deps.db, async (tx, touch): Promise<Written> => {
        await invocation.beforeWrite?.(tx);
        const held = await this.heldFor(admitted, tx);
        return held ? this.request(invocation, admitted, held, tx, touch, true) : this.write(invocation, admitted, tx, touch, true);
      });
      this.observe(invocation, entry);
      return { tool: tool.name, is_error: false, result, failure: null, ...(requested ? { changeRequest: requested } : {}) };
    } catch (error) {
      // Nothing ran: the request's answer says so, not a tool failure.
      if (error instanceof WriteNotStarted) throw error;
      return this.fail(invocation, tool, redacted, project, environment, error);
    }
  }

  /**
   * Where a write would act when that environment requires two approvals
   * (read under its lock in the write's transaction, so a change of the rule
   * on another server is never missed); null when it may run. In a batch, the
   * lock its transaction holds already answers, and a lock taken here is told
   * to `took`, for the batch to keep once the savepoint is kept.
   */
  private async heldFor(
    admitted: Admitted,
    tx: Db,
    batch?: Batch,
    took?: (taken: LockTaken) => void,
  ): Promise<Held | null> {
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

  /** Opens a change request for the write instead of running it, with its audit entry (unless its batch writes it), in `tx`. */
  private async request(
    invocation: Call,
    admitted: Admitted,
    { project, environment, approvalsRequired }: Held,
    tx: Db,
    touch: (topic: Topic) => void,
    audited: boolean,
  ): Promise<Written & { requested: string }> {
    const { tool, input, redacted } = admitted;
    const id = randomUUID();
    const { threadId = null, proposalId = null } = invocation;
    const rows = proposedWrite(admitted).rows;
    const result = await this.deps.requests.open(tx, touch, {
      id,
      operator: invocation.operator,
      via: invocation.via,
      tool,
      input,
      redacted,
      project,
      environment,
      rows,
      threadId,
      proposalId,
      approvalsRequired,
    });
    const entry = this.entry(invocation, CHANGE_REQUEST_OPENED, { change_request: id, tool: tool.name, input: redacted }, project, environment, 'ok', null);
    if (audited) await this.deps.services.audit.write(tx, entry);
    return { result, entry, requested: id };
  }

  /**
   * Claim, admit (the permission checked again), run, settle, audit: one
   * transaction, or one savepoint of a batch. An accept where two approvals
   * are required opens a change request and holds instead of running.
   */
  private async decide(invocation: Call, name: string, input: unknown, decision: Decision): Promise<ToolOutcome> {
    const { claim, settle, batch } = decision;
    let admitted: Admitted | undefined;
    let locked: LockTaken | undefined;
    const work = async (tx: Db, touch: (topic: Topic) => void): Promise<Written> => {
      // A batch asked its request once, in its own transaction.
      if (!batch) await invocation.beforeWrite?.(tx);
      const lost = await claim(tx);
      if (lost) throw new ClaimLost(lost);
      const checked = await this.admit(invocation, name, input, { tx, fresh: batch?.fresh ?? false });
      if ('is_error' in checked) throw new NotAdmitted(checked);
      admitted = checked;
      const held = 'hold' in decision && (await this.heldFor(checked, tx, batch, (taken) => (locked = taken)));
      // In a batch, the entry is written with the others when the batch ends, if this savepoint is kept.
      if (held) {
        const requested = await this.request(invocation, checked, held, tx, touch, !batch);
        await decision.hold(tx, requested.requested);
        return requested;
      }
      const written = await this.write(invocation, checked, tx, touch, !batch);
      await settle(tx, written.result);
      return written;
    };
    try {
      let written: Written;
      if (batch) {
        written = await batch.tx.transaction((savepoint) => work(savepoint, (topic) => batch.touch(topic)));
        // Kept: its entry is the batch's to write, and the lock it took the batch's to hold (a savepoint rolled back lets its locks go).
        batch.keep({ ...written.entry, at: new Date() }, locked);
      } else written = await this.deps.changes.transaction(this.deps.db, work);
      const { result, entry, requested } = written;
      this.observe(invocation, entry);
      return { tool: name, is_error: false, result, failure: null, ...(requested ? { changeRequest: requested } : {}) };
    } catch (error) {
      if (error instanceof ClaimLost) throw conflict(error.message);
      if (error instanceof NotAdmitted) return error.outcome;
      // A batch whose write deadlocked runs again whole, at its transaction's boundary (connection-loss.ts).
      if (batch && isRetriedConflict(error)) throw error;
      // Admitting threw (unknown tool, input off its schema): nothing ran, and it is audited already.
      if (!admitted) throw error;
      return this.fail(invocation, admitted.tool, admitted.redacted, admitted.project, admitted.environment, transactionCut(error) ?? error);
    }
  }

  /**
   * Runs a write and its audit entry in `tx` (unless its batch writes the entry); the entry is also what the metrics
   * observe once it commits.
   */
  private async write(invocation: Call, admitted: Admitted, tx: Db, touch: (topic: Topic) => void, audited: boolean): Promise<Written> {
    const { tool, input, redacted, project, environment } = admitted;
    const result = await tool.run(this.context(invocation, admitted, tx), input);
    const entry = this.entry(invocation, tool.name, redacted, project, environment, 'ok', null);
    if (audited) await this.deps.services.audit.write(tx, entry);
    if (project && tool.reshapesProject) touch(`project:${project.id}`);
    // A document written or deleted reshapes nothing a server caches, but the consoles showing the project follow it.
    else if (project && tool.scope === 'project') touch(`documents:${project.slug}`);
    // What services read there (deploys, secrets) may have changed.
    if (environment) touch(`environment:${environment.id}`);
    return { result, entry };
  }

  private context(invocation: Invocation, { project, environment }: Admitted, db: Db) {
    return {
      db,
      operator: invocation.operator,
      via: invocation.via,
      project,
      environment,
      services: this.deps.services,
      threadId: invocation.threadId ?? null,
    };
  }

  private permits(tool: Tool, project: ProjectAccess, environment: Environment | null): boolean {
    if (tool.permission === null) return true;
    if (!ENVIRONMENT_PERMISSIONS.has(tool.permission) || environment) return can(project.role, tool.permission, environment);
    // No environment named: allowed if it is allowed in one of them.
    return project.environments.some((e) => can(project.role, tool.permission ?? 'project:read', e));
  }

  private fillScope(tool: Tool, invocation: Invocation, input: Record<string, unknown>): Record<string, unknown> {
    const filled = { ...input };
    const scope = invocation.scope ?? {};
    if (tool.scope !== 'none' && filled.project === undefined && scope.project) filled.project = scope.project;
    if (tool.scope === 'environment' && filled.environment === undefined && scope.environment) {
      filled.environment = scope.environment;
    }
    return filled;
  }

  private async resolve(tool: Tool, operator: Operator, input: Record<string, unknown>, within?: { tx: Db; fresh: boolean }) {
    if (tool.scope === 'none' || typeof input.project !== 'string') return { project: null, environment: null };
    const project = await this.deps.services.projects.open(operator, input.project, within);
    const environment = typeof input.environment === 'string' ? findEnvironment(project, input.environment) : null;
    return { project, environment };
  }

  private refuse(
    invocation: Call,
    tool: Tool,
    input: unknown,
    project: ProjectAccess | null,
    environment: Environment | null,
    sentence: string,
  ): ToolOutcome {
    this.audit(invocation, tool, input, project, environment, 'refused', sentence);
    return { tool: tool.name, is_error: true, result: { error: sentence }, failure: 'forbidden' };
  }

  private fail(
    invocation: Call,
    tool: Tool,
    input: unknown,
    project: ProjectAccess | null,
    environment: Environment | null,
    error: unknown,
  ): ToolOutcome {
    let sentence: string;
    let failure: ErrorKind;
    if (error instanceof AppError) {
      sentence = error.message;
      failure = error.kind;
    } else {
      this.deps.log(error, `tool ${tool.name} failed`);
      sentence = `${tool.name} failed unexpectedly; the server log has the details`;
      failure = 'unavailable';
    }
    this.audit(invocation, tool, input, project, environment, 'error', sentence);
    return { tool: tool.name, is_error: true, result: { error: sentence }, failure };
  }

  private entry(
    invocation: Call,
    tool: string,
    input: unknown,
    project: ProjectAccess | null,
    environment: Environment | null,
    outcome: Outcome,
    error: string | null,
  ): Entry {
    return {
      operator: invocation.operator.name,
      via: invocation.via,
      tool,
      project: project?.slug ?? null,
      environment: environment?.name ?? null,
      threadId: invocation.threadId ?? null,
      proposalId: invocation.proposalId ?? null,
      outcome,
      input,
      error,
    };
  }

  private audit(
    invocation: Call,
    tool: Tool,
    input: unknown,
    project: ProjectAccess | null,
    environment: Environment | null,
    outcome: Outcome,
    error: string | null,
  ): void {
    const entry = this.entry(invocation, tool.name, input, project, environment, outcome, error);
    this.deps.services.audit.record(entry);
    this.observe(invocation, entry);
  }

  private observe(call: Call, entry: Entry): void {
    const { operator, tool, via, project, environment, outcome } = entry;
    const seconds = (performance.now() - call.startedAt) / 1000;
    this.deps.observe({ reqId: call.requestId ?? null, operator, tool, via, project, environment, outcome, seconds, quiet: call.quiet === true });
  }
}

/**
 * Whether the caller's role in the project could ever decide a change request
 * there: a request is a change to an environment, so its deciders hold deploy
 * or secret:write on one of them (a viewer never does).
 */
function mayDecideIn(project: ProjectAccess): boolean {
  return project.environments.some((environment) => [...ENVIRONMENT_PERMISSIONS].some((permission) => can(project.role, permission, environment)));
}

/** Whether running the tool changes anything: the store (a write) or the operator's editor (the shared buffer). */
function changesSomething(tool: Tool): boolean {
  return tool.tag === 'write' || tool.editsSharedBuffer;
}

function proposedWrite({ tool, input, project, environment }: Admitted): ProposedWrite {
  // Where it acts comes first, as resolved, then what the tool says of itself.
  const where: ProposalRow[] = [
    ...(project ? [{ k: 'project', v: project.slug }] : []),
    ...(environment ? [{ k: 'environment', v: environment.name }] : []),
  ];
  return { tool, input, project, environment, rows: [...where, ...tool.rows(input)] };
}

/**
 * The input schema a client reads: a scope field the tool needs and the
 * caller's scope does not fill is required, so the schema and the executor's
 * "missing" refusal say the same.
 */
function publishedSchema(tool: Tool, fills: { project?: string | null; environment?: string | null }): Record<string, unknown> {
  const needed = [
    ...(tool.scope !== 'none' && !fills.project ? ['project'] : []),
    ...(tool.scope === 'environment' && !fills.environment ? ['environment'] : []),
  ];
  const declared = Array.isArray(tool.input_schema.required) ? (tool.input_schema.required as string[]) : [];
  const missing = needed.filter((field) => !declared.includes(field));
  return missing.length === 0 ? tool.input_schema : { ...tool.input_schema, required: [...missing, ...declared] };
}

/** A scope field the tool needs that neither the input nor the caller's scope gave. */
function missingScope(tool: Tool, input: Record<string, unknown>): string | null {
  if (tool.scope === 'none') return null;
  if (input.project === undefined) return 'input.project is missing; name the project (nothing filled it in)';
  if (tool.scope === 'environment' && input.environment === undefined) {
    return 'input.environment is missing; name the environment (nothing filled it in)';
  }
  return null;
}

function redact(tool: Tool, input: unknown): unknown {
  if (tool.secretFields.length === 0 || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const field of tool.secretFields) if (field in copy) copy[field] = REDACTED;
  return copy;
}
