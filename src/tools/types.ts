// What a tool is: one object with its name, its description for a model, its
// input schema, the permission it costs, its tag, and how it runs.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Permission } from '../access/can.js';
import type { Operator } from '../access/operators.js';
import type { Environment, ProjectAccess } from '../domain/projects.js';
import type { Db } from '../store/db.js';
import type { Via } from '../store/schema.js';
import type { ProposalRow } from '../wire/proposal.js';
import type { ToolServices } from './services.js';

export type Tag = 'read' | 'write';
export type Audience = 'public' | 'conversation';

/** Which scope fields a tool takes; the caller's scope fills the ones left out. */
export type ScopeNeed = 'none' | 'project' | 'environment' | 'project, optional environment';

/** A proposal's summary row, as the thread answers it. */
export type { ProposalRow };

export type ToolResult = Record<string, unknown>;

export interface ToolContext {
  /** For a write, the transaction its audit entry commits in. */
  db: Db;
  operator: Operator;
  via: Via;
  /** Resolved from `project` when the tool takes one. */
  project: ProjectAccess | null;
  /** Resolved from `environment` when the tool takes one and it was given. */
  environment: Environment | null;
  services: ToolServices;
  /** The conversation the call belongs to (the assistant's thread, or a session credential's). */
  threadId: string | null;
}

/** The context as a tool of that scope sees it: the executor resolved what the scope names. */
export type ScopedContext<N extends ScopeNeed> = N extends 'none'
  ? ToolContext
  : N extends 'environment'
    ? ToolContext & { project: ProjectAccess; environment: Environment }
    : ToolContext & { project: ProjectAccess };

export interface Tool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  permission: Permission | null;
  tag: Tag;
  scope: ScopeNeed;
  /** `conversation` tools exist only for a call that belongs to a conversation, and are absent from the public catalogue. */
  audience: Audience;
  /**
   * Whether a successful write changes what the project directory holds in
   * memory (roles, environments, what is live), so every server must drop it.
   * Only writes that provably leave those alone say false.
   */
  reshapesProject: boolean;
  /** Input fields holding secret values, replaced by `[redacted]` in the audit (and sealed in a change request). */
  secretFields: readonly string[];
  /** Input fields whose names look secret but that hold no secret value (src/tools/secret-fields.ts). */
  plainFields: readonly string[];
  /** JSON Schema of a successful result, when the tool declares one (MCP's outputSchema). */
  output_schema?: Record<string, unknown>;
  /** Changes the operator's unsaved editor buffer (a read of the store all the same): refused on a read-only connection. */
  editsSharedBuffer: boolean;
  /**
   * Decides a change request: a person's act, refused to the assistant and to
   * session credentials. It runs its own transaction (the change it approves
   * runs through the executor inside it) and writes its audit entry there.
   */
  decides: boolean;
  /** The proposal's summary rows (writes), after the project and environment rows the executor puts first. */
  rows(input: Record<string, unknown>): ProposalRow[];
  /**
   * What a successful write's audit entry adds as `made` beside its input: what
   * the input leaves open and the result settles (the revision a deploy put
   * live, a save's new revision). Absent: nothing is added.
   */
  made?(result: ToolResult): Record<string, unknown>;
  run(ctx: ToolContext, input: Record<string, unknown>): Promise<ToolResult>;
}

type Spec<I, N extends ScopeNeed> = {
  name: string;
  description: string;
  permission: Permission | null;
  tag: Tag;
  scope: N;
  audience?: Audience;
  reshapesProject?: boolean;
  /** Said out loud, `[]` included: a new secret field never reaches the audit by a default. */
  secretFields: readonly string[];
  plainFields?: readonly string[];
  output_schema?: Record<string, unknown>;
  editsSharedBuffer?: boolean;
  decides?: boolean;
  rows?: (input: I) => ProposalRow[];
  made?: (result: ToolResult) => Record<string, unknown>;
  run: (ctx: ScopedContext<N>, input: I) => Promise<ToolResult>;
};

/**
 * Declares a tool whose input type comes from its schema:
 * `withInput(schema).define({ name, …, run })`. The schema is taken first so
 * its type is fixed before the callbacks are typed. The executor validates
 * every input against the schema before `run` sees it, which is what makes
 * the casts below sound.
 */
export function withInput<const S extends JSONSchema>(input_schema: S) {
  return {
    define<const N extends ScopeNeed>(spec: Spec<FromSchema<S>, N>): Tool {
      return {
        name: spec.name,
        description: spec.description,
        input_schema: input_schema as Record<string, unknown>,
        permission: spec.permission,
        tag: spec.tag,
        scope: spec.scope,
        audience: spec.audience ?? 'public',
        reshapesProject: spec.reshapesProject ?? true,
        secretFields: spec.secretFields,
        plainFields: spec.plainFields ?? [],
        ...(spec.output_schema ? { output_schema: spec.output_schema } : {}),
        editsSharedBuffer: spec.editsSharedBuffer ?? false,
        decides: spec.decides ?? false,
        rows: (input) => (spec.rows ? spec.rows(input as never) : []),
        ...(spec.made ? { made: spec.made } : {}),
        run: (ctx, input) => spec.run(ctx as ScopedContext<N>, input as never),
      };
    },
  };
}

/** The longest name a tool input takes (project, environment, operator, tool). */
export const NAME_LENGTH = 200;

/** Schema fragments every scoped tool shares. */
export const scopeProperties = {
  project: { type: 'string', maxLength: NAME_LENGTH, description: "Project slug; defaults to the caller's project." },
  environment: { type: 'string', maxLength: NAME_LENGTH, description: "Environment name; defaults to the caller's environment." },
} as const;

/** Why a change to an environment is made: what a change request keeps, where the environment requires two approvals. */
export const reasonProperty = { type: 'string', maxLength: 2000, description: 'Why (kept with a change request).' } as const;
