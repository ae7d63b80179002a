// The executor: the one path every tool run takes, whoever calls — look up,
// validate, fill scope, resolve project and environment, authorize with
// can(), run (a write in one transaction with its audit entry), audit. A
// refusal or failure is a result with is_error, never an exception; only an
// unknown tool (not_found) and input that misses its schema (invalid) throw,
// so REST can answer 404 and 422.
import type { ValidateFunction } from 'ajv';
import { can, ENVIRONMENT_PERMISSIONS, refusal } from '../access/can.js';
import type { Operator } from '../access/operators.js';
import { findEnvironment, type Environment, type ProjectAccess } from '../domain/projects.js';
import { AppError, conflict, invalid, notFound, type ErrorKind } from '../errors.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import type { Outcome, Via } from '../store/schema.js';
import { compileAtTheEdge, createAjv } from '../validation/ajv.js';
import type { ToolServices } from './services.js';
import type { ProposalRow, Tag, Tool, ToolResult } from './types.js';

export interface Invocation {
  operator: Operator;
  via: Via;
  /** The caller's scope: what fills a `project` or `environment` the input leaves out. */
  scope?: { project?: string | null; environment?: string | null };
  /** Refuse every write tool at execution. */
  readOnly?: boolean;
  /** Only these tools exist for this caller. */
  only?: ReadonlySet<string> | null;
  threadId?: string | null;
  proposalId?: string | null;
  /** The call comes from a conversation (of `threadId`): the conversation tools exist for it. */
  conversation?: boolean;
}

export interface ToolCallResponse {
  tool: string;
  is_error: boolean;
  result: ToolResult;
}

/** A response, with the kind of failure kept for callers that map it to a status. */
export interface ToolOutcome extends ToolCallResponse {
  failure: ErrorKind | null;
}

/** A call that passed every check but running: the tool, its filled input, where it acts. */
interface Admitted {
  tool: Tool;
  input: Record<string, unknown>;
  redacted: unknown;
  project: ProjectAccess | null;
  environment: Environment | null;
}

export type Prepared =
  | {
      ready: true;
      tool: Tool;
      input: Record<string, unknown>;
      project: ProjectAccess | null;
      environment: Environment | null;
      rows: ProposalRow[];
    }
  | { ready: false; outcome: ToolOutcome };

/**
 * For accepting a proposal: `claim` runs first inside the write's
 * transaction — when it returns false (someone else decided the proposal),
 * nothing runs and `run` throws a conflict — and `settle` stores the result in
 * the same transaction.
 */
export interface RunOptions {
  claim?: (tx: Db) => Promise<boolean>;
  settle?: (tx: Db, result: ToolResult) => Promise<void>;
}

/** A claim that found the proposal already decided. */
class ClaimLost extends Error {}

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
  log: (error: unknown, message: string) => void;
}

const REDACTED = '[redacted]';

export class Executor {
  private readonly tools = new Map<string, { tool: Tool; validate: ValidateFunction }>();

  constructor(
    catalogue: readonly Tool[],
    private readonly deps: ExecutorDeps,
  ) {
    const ajv = createAjv();
    for (const tool of catalogue) this.tools.set(tool.name, { tool, validate: compileAtTheEdge(ajv, tool.input_schema) });
  }

  catalogue(): Tool[] {
    return [...this.tools.values()].map((entry) => entry.tool);
  }

  /** Whether the named tool writes: a caller that proposes writes asks before running. */
  writes(name: string): boolean {
    return this.tools.get(name)?.tool.tag === 'write';
  }

  /**
   * Every tool with whether the operator could run it where `where` points
   * (advisory); the conversation tools only for a conversation. `where` is
   * also the caller's scope, which fills a `project` or `environment` left
   * out, unless `scopeFills` is false (the REST route fills nothing): then
   * the published schema requires what the tool needs.
   */
  async describe(
    operator: Operator,
    where: { project?: string | null; environment?: string | null },
    options: { conversation?: boolean; scopeFills?: boolean } = {},
  ): Promise<ToolDescriptor[]> {
    const projects = await this.projectsWhere(operator, where.project);
    const fills = options.scopeFills === false ? {} : where;
    const visible = this.catalogue().filter((tool) => tool.audience === 'public' || options.conversation);
    return visible.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: publishedSchema(tool, fills),
      permission: tool.permission,
      tag: tool.tag,
      allowed: tool.scope === 'none' || projects.some((project) => this.allowedIn(tool, project, where.environment)),
      ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
      ...(tool.editsBuffer ? { edits_buffer: true as const } : {}),
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

  /** Runs a tool; see RunOptions for running one as a proposal's decision. */
  async run(invocation: Invocation, name: string, input: unknown, options: RunOptions = {}): Promise<ToolOutcome> {
    const admitted = await this.admit(invocation, name, input);
    if ('is_error' in admitted) return admitted;
    return this.execute(invocation, admitted, options);
  }

  /**
   * Everything short of running: for a write the assistant proposes instead.
   * The input's faults come back as an outcome too, for the model to read.
   */
  async prepare(invocation: Invocation, name: string, input: unknown): Promise<Prepared> {
    try {
      const admitted = await this.admit(invocation, name, input);
      if ('is_error' in admitted) return { ready: false, outcome: admitted };
      const { tool, input: filled, project, environment } = admitted;
      // Where it acts comes first, as resolved, then what the tool says of itself.
      const where: ProposalRow[] = [
        ...(project ? [{ k: 'project', v: project.slug }] : []),
        ...(environment ? [{ k: 'environment', v: environment.name }] : []),
      ];
      return { ready: true, tool, input: filled, project, environment, rows: [...where, ...tool.rows(filled)] };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { ready: false, outcome: { tool: name, is_error: true, result: { error: error.message }, failure: error.kind } };
    }
  }

  /** Look up, validate, fill scope, resolve, authorize. Throws for an unknown tool or input off its schema. */
  private async admit(invocation: Invocation, name: string, input: unknown): Promise<Admitted | ToolOutcome> {
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
      ({ project, environment } = await this.resolve(tool, invocation.operator, filled));
    } catch (error) {
      return this.fail(invocation, tool, redacted, project, environment, error);
    }
    if (invocation.readOnly && tool.tag === 'write') {
      return this.refuse(invocation, tool, redacted, project, environment, `${name} is a write tool, and this connection is read-only`);
    }
    if (project && !this.permits(tool, project, environment)) {
      const permission = tool.permission ?? 'project:read';
      return this.refuse(invocation, tool, redacted, project, environment, refusal(project.role, permission, project.slug, environment));
    }
    return { tool, input: filled, redacted, project, environment };
  }

  private async execute(invocation: Invocation, admitted: Admitted, { claim, settle }: RunOptions): Promise<ToolOutcome> {
    const { tool, input, redacted, project, environment } = admitted;
    const ctx = {
      operator: invocation.operator,
      via: invocation.via,
      project,
      environment,
      services: this.deps.services,
      threadId: invocation.threadId ?? null,
    };
    try {
      if (tool.tag === 'read' && !claim) {
        const result = await tool.run({ ...ctx, db: this.deps.db }, input);
        this.audit(invocation, tool, redacted, project, environment, 'ok', null);
        return { tool: tool.name, is_error: false, result, failure: null };
      }
      const result = await this.deps.changes.transaction(this.deps.db, async (tx, touch) => {
        if (claim && !(await claim(tx))) throw new ClaimLost();
        const value = await tool.run({ ...ctx, db: tx }, input);
        await settle?.(tx, value);
        await this.deps.services.audit.write(tx, this.entry(invocation, tool, redacted, project, environment, 'ok', null));
        if (project && tool.reshapesProject) touch(`project:${project.id}`);
        return value;
      });
      return { tool: tool.name, is_error: false, result, failure: null };
    } catch (error) {
      if (error instanceof ClaimLost) throw conflict('this proposal was already decided');
      return this.fail(invocation, tool, redacted, project, environment, error);
    }
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

  private async resolve(tool: Tool, operator: Operator, input: Record<string, unknown>) {
    if (tool.scope === 'none' || typeof input.project !== 'string') return { project: null, environment: null };
    const project = await this.deps.services.projects.open(operator, input.project);
    const environment = typeof input.environment === 'string' ? findEnvironment(project, input.environment) : null;
    return { project, environment };
  }

  private refuse(
    invocation: Invocation,
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
    invocation: Invocation,
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
    invocation: Invocation,
    tool: Tool,
    input: unknown,
    project: ProjectAccess | null,
    environment: Environment | null,
    outcome: Outcome,
    error: string | null,
  ) {
    return {
      operator: invocation.operator.name,
      via: invocation.via,
      tool: tool.name,
      project: project?.slug ?? null,
      environment: environment?.name ?? null,
      threadId: invocation.threadId ?? null,
      proposalId: invocation.proposalId ?? null,
      outcome,
      input,
      error,
    };
  }

  private audit(...args: Parameters<Executor['entry']>): void {
    this.deps.services.audit.record(this.entry(...args));
  }
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
