// The executor: the one path every tool run takes, whoever calls — look up,
// validate, fill scope, resolve project and environment, authorize with
// can(), run (a write in one transaction with its audit entry), audit. A
// refusal or failure is a result with is_error, never an exception; only an
// unknown tool (not_found), input that misses its schema (invalid) and a
// decision that lost its claim (conflict) throw, so REST can answer 404, 422
// and 409. A caller that proposes (the assistant, a session credential) says
// so in its invocation: then a write never runs, it is handed to `propose`,
// and only an accept — a run with a claim (decisions.ts) — runs it. A write
// to an environment that requires approvals passes the gate
// (approval-gate.ts): it becomes a change request and runs only when enough
// others approve it — a decision that `approves` it (DESIGN.md §13).
// Accept-all and an approval decide in a batch (batch.ts).
import type { Operator } from '../access/operators.js';
import { refusal } from '../access/can.js';
import { findEnvironment, type Environment, type ProjectAccess } from '../domain/projects.js';
import { AppError, conflict, invalid, notFound, WriteNotStarted, type ErrorKind } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isRetriedConflict, transactionCut } from '../store/transaction-errors.js';
import type { Outcome } from '../store/schema.js';
import { ajvOnFirstUse, compileAtTheEdge, type Validate } from '../validation/ajv.js';
import { CHANGE_REQUEST_OPENED, heldFor, openChangeRequest, type ChangeRequestDesk, type Held } from './approval-gate.js';
import { inBatch, type Batch, type LockTaken } from './batch.js';
import { ClaimLost, NotAdmitted, type Decision } from './decisions.js';
import { describeTools, type DescribeOptions } from './describing.js';
import { proposedWrite, type Admitted, type Call, type Entry, type Invocation, type ToolDescriptor, type ToolOutcome, type ToolRun, type Written } from './invocation.js';
import { changesSomething, permits } from './permits.js';
import { fillScope, missingScope } from './scope.js';
import { assertSecretsDeclared, redact } from './secret-fields.js';
import type { ToolServices } from './services.js';
import type { Tool } from './types.js';

// What callers import from here: the executor's vocabulary lives in the modules named.
export type { ChangeRequestDesk, RequestedChange } from './approval-gate.js';
export { CHANGE_REQUEST_OPENED } from './approval-gate.js';
export type { Batch } from './batch.js';
export type { Accepting, Approving, Decision } from './decisions.js';
export type { BeforeWrite, Invocation, ProposedWrite, Restrictions, ToolCallResponse, ToolDescriptor, ToolOutcome, ToolRun } from './invocation.js';

export interface ExecutorDeps {
  db: Db;
  changes: Changes;
  services: ToolServices;
  requests: ChangeRequestDesk;
  log: (error: unknown, message: string) => void;
  /** Told of every run once it is audited (a write: once it committed). */
  observe: (run: ToolRun) => void;
}

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

  /** Runs `work` with a batch in `tx` (a transaction of `changes`, whose `touch` it is): see src/tools/batch.ts. */
  batch<T>(tx: Db, touch: (topic: Topic) => void, work: (batch: Batch) => Promise<T>): Promise<T> {
    return inBatch(tx, touch, (inTx, entries) => this.deps.services.audit.writeAll(inTx, entries), work);
  }

  /**
   * Every tool that exists for the caller, with whether the operator could
   * run it where `where` points (src/tools/describing.ts).
   */
  describe(
    operator: Operator,
    where: { project?: string | null; environment?: string | null },
    options: DescribeOptions = {},
  ): Promise<ToolDescriptor[]> {
    return describeTools(this.catalogue(), this.deps.services.projects, operator, where, options);
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
    const filled = fillScope(tool, invocation, input as Record<string, unknown>);
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
    if (project && !permits(tool, project, environment)) {
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
        const held = await heldFor(admitted, tx);
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

  /** Opens a change request for the write instead of running it, with its audit entry (unless its batch writes it), in `tx`. */
  private async request(
    invocation: Call,
    admitted: Admitted,
    held: Held,
    tx: Db,
    touch: (topic: Topic) => void,
    audited: boolean,
  ): Promise<Written & { requested: string }> {
    const { id, result } = await openChangeRequest(this.deps.requests, invocation, admitted, held, tx, touch);
    const opened = { change_request: id, tool: admitted.tool.name, input: admitted.redacted };
    const entry = this.entry(invocation, CHANGE_REQUEST_OPENED, opened, held.project, held.environment, 'ok', null);
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
      const held = 'hold' in decision && (await heldFor(checked, tx, batch, (taken) => (locked = taken)));
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
    // Inputs are objects (their schemas say so); `made` sits beside the input's own fields.
    const recorded = tool.made ? { ...(redacted as Record<string, unknown>), made: tool.made(result) } : redacted;
    const entry = this.entry(invocation, tool.name, recorded, project, environment, 'ok', null);
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
