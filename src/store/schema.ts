// The one schema of the store, for PGlite and PostgreSQL alike. Migrations in
// ./migrations are generated from it by drizzle-kit (`npm run db:generate`).
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { AUDIT_OUTCOMES } from '../wire/audit.js';
import { ROLES } from '../wire/role.js';
import { CHANGE_REQUEST_STATUSES } from '../wire/change-request-status.js';
import { VIAS, type Via } from '../wire/via.js';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../wire/webhook.js';
// The types the JSON columns hold, so a read needs no cast (type imports only: nothing here runs them).
import type { AgentChoices } from '../assistant/agent-options.js';
import type { ModelMessage } from '../assistant/providers/types.js';
import type { Replacement } from '../documents/edits.js';
import type { AgentBlocks } from '../turns/events.js';
import type { StoredTurnEvent } from '../turns/running-turn.js';
import type { StoredPayload } from '../webhooks/payloads.js';
import type { AgentOptions } from '../wire/agent-options.js';
import type { ToolCall } from '../wire/agent-work.js';
import type { Change, Verdict } from '../wire/change-request.js';
import type { Cursor, Selection } from '../wire/context.js';
import type { ProposalRow } from '../wire/proposal.js';
import type { QuestionContent, QuestionField } from '../wire/question.js';

/**
 * What an answer's `blocks` hold: the built-in model's messages of its turn,
 * an agent's tool calls and plan, or the mark of an answer that carries an
 * attached agent's proposals outside a turn.
 */
export type MessageBlocks = ModelMessage[] | AgentBlocks | { attached: true };

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const operators = pgTable('operators', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  owner: boolean('owner').notNull().default(false),
  createdAt: createdAt(),
  /** Set when an owner disabled the operator: every token refused, history kept. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const environments = pgTable(
  'environments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    protected: boolean('protected').notNull().default(false),
    /**
     * How many distinct people's word a change here needs, the requester's
     * ask being the first: 1 runs it at once; N > 1 makes it a change request
     * that N − 1 other operators approve (DESIGN.md §14).
     */
    approvalsRequired: integer('approvals_required').notNull().default(1),
    /** Whether a requester's own approval counts as one of those N − 1 (off: never). */
    requesterMayApprove: boolean('requester_may_approve').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('environments_project_name').on(t.projectId, t.name)],
);

export type Role = (typeof ROLES)[number];

export const memberships = pgTable(
  'memberships',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.operatorId] }), index('memberships_operator').on(t.operatorId)],
);

export const TOKEN_KINDS = ['operator', 'service', 'session'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The operator who holds it (for a service token: who minted it). */
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TOKEN_KINDS }).notNull(),
    name: text('name').notNull(),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    hash: text('hash').notNull().unique(),
    /** A service token reads the live configuration of this environment only. */
    environmentId: uuid('environment_id').references(() => environments.id, { onDelete: 'cascade' }),
    /** A session credential serves this conversation only, and goes with it. */
    threadId: uuid('thread_id').references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('tokens_operator').on(t.operatorId).where(sql`${t.revokedAt} is null`)],
);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    /** The newest revision's number; revisions count from 1. */
    currentRevision: integer('current_revision').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('documents_project_path').on(t.projectId, t.path)],
);

export const revisions = pgTable(
  'revisions',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    text: text('text').notNull(),
    sha256: text('sha256').notNull(),
    authorId: uuid('author_id').references(() => operators.id, { onDelete: 'set null' }),
    message: text('message'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.number] })],
);

export type { Via };

export const deployments = pgTable(
  'deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** Counts per environment from 1; it is the live endpoint's ETag. */
    number: integer('number').notNull(),
    path: text('path').notNull(),
    revision: integer('revision').notNull(),
    operatorId: uuid('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    via: text('via', { enum: VIAS }).notNull(),
    rollback: boolean('rollback').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deployments_environment_number').on(t.environmentId, t.number),
    index('deployments_environment_path').on(t.environmentId, t.path, t.number),
  ],
);

/** What is live: one row per environment and path, pointing at its deployment. */
export const liveDocuments = pgTable(
  'live_documents',
  {
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'restrict' }),
    revision: integer('revision').notNull(),
    deploymentNumber: integer('deployment_number').notNull(),
    deployedAt: timestamp('deployed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.path] }), index('live_documents_document').on(t.documentId)],
);

export const secrets = pgTable(
  'secrets',
  {
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** AES-256-GCM under the instance key: iv, tag and ciphertext, base64. */
    sealed: text('sealed').notNull(),
    version: integer('version').notNull(),
    updatedBy: uuid('updated_by').references(() => operators.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.name] })],
);

export type Outcome = (typeof AUDIT_OUTCOMES)[number];

export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Names, not ids: the log outlives what it names. */
    operator: text('operator'),
    via: text('via').notNull(),
    tool: text('tool').notNull(),
    project: text('project'),
    environment: text('environment'),
    threadId: uuid('thread_id'),
    proposalId: uuid('proposal_id'),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    /** The input with secret values replaced by `[redacted]`. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    error: text('error'),
  },
  (t) => [
    index('audit_project_id').on(t.project, t.id),
    index('audit_tool_id').on(t.tool, t.id),
    // What changed a waiting proposal's target since it was made (proposal-staleness.ts): a walk back that stops at the proposal.
    index('audit_project_at').on(t.project, t.at, t.id),
  ],
);

export const threads = pgTable(
  'threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    /** Slugs and names, not ids: a thread outlives neither, and shows what it was opened on. */
    project: text('project'),
    environment: text('environment').notNull(),
    page: text('page').notNull().default(''),
    title: text('title').notNull().default(''),
    /** The configured ACP agent holding the thread; null for the built-in assistant. */
    agent: text('agent'),
    /** The agent's session id, for session/resume or session/load when its process starts again, on any server. */
    agentSession: text('agent_session'),
    /** The modes and config options the agent's session last said it offers, with their current values (src/acp/options.ts). */
    agentOptions: jsonb('agent_options').$type<AgentOptions>(),
    /** The operator's choices among them (`{"mode": id, "options": {configId: value}}`), applied at each turn's start. */
    agentChoices: jsonb('agent_choices').$type<Partial<AgentChoices>>(),
    /** The server whose process holds the thread's agent (one in the cluster), while its lease lasts. */
    agentServer: text('agent_server'),
    agentLeaseUntil: timestamp('agent_lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('threads_operator_updated').on(t.operatorId, t.updatedAt)],
);

const MESSAGE_ROLES = ['user', 'assistant'] as const;

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    role: text('role', { enum: MESSAGE_ROLES }).notNull(),
    /** What the console renders: the text blocks joined with a blank line. */
    text: text('text').notNull(),
    /** The raw exchange of an answer (model messages: text, tool_use, tool_result), replayed as history. */
    blocks: jsonb('blocks').$type<MessageBlocks>(),
    /** A built-in answer's tool calls as the thread shows them (inputs and results cut), stored with it so no read goes through `blocks`. */
    toolCalls: jsonb('tool_calls').$type<ToolCall[]>(),
    stopReason: text('stop_reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_thread').on(t.threadId, t.id)],
);

/** `requested`: accepted where approvals are required, waiting on its change request (the API shows it accepted: docs/decisions.md). */
const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected', 'failed', 'requested'] as const;

export const proposals = pgTable(
  'proposals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    /** Order within its answer. */
    position: integer('position').notNull(),
    toolUseId: text('tool_use_id').notNull(),
    tool: text('tool').notNull(),
    /** As the model wrote it, scope filled; parked values stay `[secret:N]` until accepted. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    project: text('project'),
    environment: text('environment').notNull(),
    permission: text('permission').notNull(),
    tag: text('tag').notNull(),
    title: text('title').notNull(),
    rows: jsonb('rows').$type<ProposalRow[]>().notNull(),
    status: text('status', { enum: PROPOSAL_STATUSES }).notNull().default('pending'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Accepted where two approvals are required: the change request it waits on (`requested` until that is decided). */
    changeRequestId: uuid('change_request_id').references((): AnyPgColumn => changeRequests.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('proposals_thread').on(t.threadId, t.messageId, t.position)],
);

/**
 * What each model call of a turn cost, as the model API reported it. Kept
 * when its thread is deleted (the ids become null), so totals stay whole.
 */
export const modelCalls = pgTable(
  'model_calls',
  {
    id: serial('id').primaryKey(),
    threadId: uuid('thread_id').references(() => threads.id, { onDelete: 'set null' }),
    /** The answer of the turn (a messages id; no foreign key, the row outlives it); null when the turn failed before answering. */
    messageId: integer('message_id'),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    cacheWriteTokens: integer('cache_write_tokens').notNull(),
    cacheReadTokens: integer('cache_read_tokens').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_calls_thread').on(t.threadId)],
);

/**
 * What an ACP agent reported a turn cost (its `usage_update`s and the usage
 * its prompt response carried): a row per turn that reported anything, each
 * field null where the agent said nothing of it. Kept when its thread is
 * deleted (the ids become null), as model_calls are.
 */
export const agentUsage = pgTable(
  'agent_usage',
  {
    id: serial('id').primaryKey(),
    threadId: uuid('thread_id').references(() => threads.id, { onDelete: 'set null' }),
    /** The turn's answer (no foreign key: the row outlives it). */
    messageId: integer('message_id'),
    agent: text('agent').notNull(),
    /** The agent's session: its cost is cumulative over a session. */
    session: text('session').notNull(),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    thoughtTokens: integer('thought_tokens'),
    cacheReadTokens: integer('cache_read_tokens'),
    cacheWriteTokens: integer('cache_write_tokens'),
    /** Tokens in the session's context at the turn's end, and the context window's size. */
    contextUsed: integer('context_used'),
    contextSize: integer('context_size'),
    /** What this turn cost: the session's cumulative cost now, less what it was after its previous turn. */
    cost: doublePrecision('cost'),
    sessionCost: doublePrecision('session_cost'),
    currency: text('currency'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_usage_thread').on(t.threadId, t.session)],
);

/** Values typed into messages, kept sealed for their thread and forgotten with it. */
export const parkedSecrets = pgTable(
  'parked_secrets',
  {
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    sealed: text('sealed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.number] })],
);

/** One row per message an operator sent the assistant: the rate is counted here, across servers. */
export const assistantSends = pgTable(
  'assistant_sends',
  {
    id: serial('id').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assistant_sends_operator_at').on(t.operatorId, t.at)],
);

/** What the operator's console shares with a conversation: the screen and the open document. */
export const threadContexts = pgTable('thread_contexts', {
  threadId: uuid('thread_id')
    .primaryKey()
    .references(() => threads.id, { onDelete: 'cascade' }),
  shared: boolean('shared').notNull(),
  url: text('url'),
  concepts: jsonb('concepts').$type<string[]>().notNull().default([]),
  /**
   * The open document, or null when no editor is open. Its text in a column
   * of its own (it can be large), as it stood before the batches still in
   * thread_context_edits: the current text is this one with them replayed.
   */
  documentPath: text('document_path'),
  documentText: text('document_text'),
  /** How many batches thread_context_edits holds after documentText, and their size (JSON characters): past a bound they are folded in. */
  editLogBatches: integer('edit_log_batches').notNull().default(0),
  editLogSize: integer('edit_log_size').notNull().default(0),
  /** One-based `{from_line, from_column, to_line, to_column}`, or null. */
  selection: jsonb('selection').$type<Selection>(),
  /** One-based `{line, column}`, or null. */
  cursor: jsonb('cursor').$type<Cursor>(),
  /** Edit batches recorded for this conversation, the operator's and the assistant's. */
  revision: integer('revision').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One edit batch of a shared text after thread_contexts.document_text: the
 * replacements it made, in order, each `{at, removed, text}` against the text
 * the one before left.
 */
export const threadContextEdits = pgTable(
  'thread_context_edits',
  {
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threadContexts.threadId, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    replacements: jsonb('replacements').$type<Replacement[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.revision] })],
);

/**
 * Facts about this instance, by name. `key_check`: a known text sealed under
 * the instance key, so a server started with another key is refused at start.
 */
export const instanceFacts = pgTable('instance_facts', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * A thread's turn: one runs per thread at a time (the partial unique index),
 * held by the server running it while it renews `leaseUntil`. An expired
 * lease frees the thread: the turn is stored as an interrupted answer.
 */
export const turns = pgTable(
  'turns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    /** The agent answering; null for the built-in assistant. */
    agent: text('agent'),
    /** The server running it, by its name (AION_SERVER_NAME). */
    server: text('server').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    /** Written by any server's cancel; the server running the turn hears it. */
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    stopReason: text('stop_reason'),
  },
  (t) => [
    uniqueIndex('turns_running_thread').on(t.threadId).where(sql`${t.endedAt} is null`),
    index('turns_running_lease').on(t.leaseUntil).where(sql`${t.endedAt} is null`),
    index('turns_ended').on(t.endedAt),
  ],
);

const QUESTION_STATUSES = ['pending', 'accepted', 'declined', 'cancelled'] as const;

/**
 * An agent's question to the operator (ACP elicitation, form mode), asked
 * during a turn and gone with it: answered on any server, heard by the one
 * running the turn.
 */
export const agentQuestions = pgTable(
  'agent_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    turnId: uuid('turn_id')
      .notNull()
      .references(() => turns.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').notNull(),
    message: text('message').notNull(),
    /** The fields asked for, as the console shows them (src/acp/questions.ts). */
    fields: jsonb('fields').$type<QuestionField[]>().notNull(),
    status: text('status', { enum: QUESTION_STATUSES }).notNull().default('pending'),
    /** What the operator answered, when accepted. */
    answer: jsonb('answer').$type<QuestionContent>(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_questions_thread').on(t.threadId)],
);

/** What a turn did, in order, as followers over SSE see it; pruned a while after the turn ends. */
export const turnEvents = pgTable(
  'turn_events',
  {
    turnId: uuid('turn_id')
      .notNull()
      .references(() => turns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    event: jsonb('event').$type<StoredTurnEvent>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

/** The servers sharing this store: which agents each can run, and when it was last seen. */
export const servers = pgTable('servers', {
  name: text('name').primaryKey(),
  agents: jsonb('agents').$type<string[]>().notNull().default([]),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A change to an environment that requires two approvals, held until a second
 * operator approves (it runs then, once) or declines it. What it would run is
 * kept with secret values sealed; what it would change and the checker's
 * verdict are recorded when asked, so staleness is what moved since.
 */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    /** The input as it would run, secret values replaced by `[redacted]`. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** The secret values of the input, sealed under the instance key (JSON of field to value); null when it has none. */
    sealed: text('sealed'),
    permission: text('permission').notNull(),
    /** The summary rows, as a proposal of the same call shows them. */
    rows: jsonb('rows').$type<ProposalRow[]>().notNull(),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    via: text('via', { enum: VIAS }).notNull(),
    reason: text('reason'),
    /** Ids, not references: the request outlives the conversation that asked. */
    threadId: uuid('thread_id'),
    proposalId: uuid('proposal_id'),
    /** What would change, as it stood when asked (src/change-requests/what-changes.ts). */
    change: jsonb('change').$type<Change>().notNull(),
    /** The checker's diagnostics for the environment, for a document change; null otherwise. */
    verdict: jsonb('verdict').$type<Verdict>(),
    status: text('status', { enum: CHANGE_REQUEST_STATUSES }).notNull().default('pending'),
    /** Why it can no longer run as asked, found the moment what it changes moved (src/change-requests/staleness.ts); null while it can. */
    staleReason: text('stale_reason'),
    deciderId: uuid('decider_id').references(() => operators.id, { onDelete: 'set null' }),
    comment: text('comment'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('change_requests_project').on(t.projectId, t.createdAt),
    index('change_requests_requester').on(t.requesterId, t.createdAt),
    index('change_requests_pending').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * One operator's approval of a change request. Dismissed (kept, no longer
 * counted) when what the request would change moved; one live approval per
 * operator and request.
 */
export const changeRequestApprovals = pgTable(
  'change_request_approvals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    changeRequestId: uuid('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    comment: text('comment'),
    createdAt: createdAt(),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    /** Why it no longer counts: what moved. */
    dismissedBecause: text('dismissed_because'),
  },
  (t) => [uniqueIndex('change_request_approvals_live').on(t.changeRequestId, t.operatorId).where(sql`${t.dismissedAt} is null`)],
);

export const IDEMPOTENCY_STATUSES = ['running', 'applied', 'done'] as const;

/**
 * A request sent with an `Idempotency-Key` (deploy, rollback, accept), kept
 * 24 h so a retry on any server answers what the first got instead of running
 * again. `attempt` fences the request that holds the key: its write marks the
 * row `applied` in the write's own transaction, only while it still holds it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** `METHOD /path` as sent: the same key on another route is another request. */
    route: text('route').notNull(),
    /** SHA-256 of the body, keys sorted. */
    requestHash: text('request_hash').notNull(),
    attempt: uuid('attempt').notNull(),
    status: text('status', { enum: IDEMPOTENCY_STATUSES }).notNull().default('running'),
    responseStatus: integer('response_status'),
    /** The answer's body as it was sent. */
    response: text('response'),
    createdAt: createdAt(),
    /** When the attempt holding it began: one older than the request bound can no longer start its write. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);

/** An outgoing webhook of a project (src/webhooks): where to post which events, signed with its sealed secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events', { enum: WEBHOOK_EVENTS }).array().notNull(),
    /** The signing secret, AES-256-GCM under the instance key; shown once, when the hook is made. */
    sealedSecret: text('sealed_secret').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => operators.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_project').on(t.projectId)],
);

/**
 * One event to post to one hook: written in the transaction of the change it
 * tells (the outbox), claimed by any server's sender once due, retried with
 * backoff until delivered or out of attempts. `key` names the event once per
 * hook, so telling it twice stores it once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event', { enum: WEBHOOK_EVENTS }).notNull(),
    key: text('key').notNull(),
    /** The body but its console link, which the sender adds from its public URL. */
    payload: jsonb('payload').$type<StoredPayload>().notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When a sender may take it next; a claim moves it past the attempt, so a sender that died frees it. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_key').on(t.webhookId, t.key),
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_hook').on(t.webhookId, t.createdAt),
  ],
);
