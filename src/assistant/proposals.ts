// Deciding proposals. Accepting claims the proposal (checking it is still
// executable), runs its tool through the executor as the accepting operator
// and stores the result — claim, effect and audit in one transaction — so it
// runs once however many accepts race, on however many servers. Rejecting
// changes nothing but the proposal.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { perform, type Actor } from '../domain/actions.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { messages, parkedSecrets, proposals } from '../store/schema.js';
import { Batch } from '../tools/executor.js';
import type { AssistantDeps } from './deps.js';
import { placeholdersIn, unparkSecrets } from './parking.js';
import { NO_LONGER_EXECUTABLE, REPLACED } from './proposing.js';
import type { ThreadRecord } from './threads.js';

type ProposalRecord = typeof proposals.$inferSelect;

async function findProposal(db: Db, thread: ThreadRecord, id: string): Promise<ProposalRecord> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(proposals)
        .where(and(eq(proposals.id, id), eq(proposals.threadId, thread.id)))
        .limit(1)
    : [];
  if (!row) throw notFound(`no such proposal: ${id} in this thread`);
  return row;
}

/** Accepts one proposal; true when its tool succeeded, false when it failed. */
export async function acceptProposal(deps: AssistantDeps, operator: Operator, thread: ThreadRecord, id: string): Promise<boolean> {
  return accept(deps, operator, thread, await findProposal(deps.db, thread, id));
}

/**
 * Claims the proposal and runs it as the accepting operator: in a
 * transaction of its own, or in a savepoint of `batch`'s. A failure is
 * recorded on the proposal; a claim that cannot be taken is a conflict, and
 * one that never can (no longer executable) also fails the proposal.
 */
async function accept(deps: AssistantDeps, operator: Operator, thread: ThreadRecord, proposal: ProposalRecord, batch?: Batch): Promise<boolean> {
  const db = batch?.tx ?? deps.db;
  let unrunnable: string | null = null;
  const outcome = await deps.executor
    .run(
      { operator, via: 'assistant', threadId: thread.id, proposalId: proposal.id },
      proposal.tool,
      await inputWithParkedValues(deps, db, thread, proposal),
      {
        claim: async (tx) => {
          const lost = await claim(tx, thread, proposal);
          if (lost?.unrunnable) unrunnable = lost.why;
          return lost?.why ?? null;
        },
        settle: async (tx, result) => {
          await tx.update(proposals).set({ result }).where(eq(proposals.id, proposal.id));
        },
        batch,
      },
    )
    .catch(async (error: unknown) => {
      // The lost claim rolled back; a proposal that can never run is failed with why, so its thread stops waiting on it.
      if (unrunnable !== null && (await decide(db, proposal.id, 'failed', { error: unrunnable })) > 0) deps.metrics.proposalDecided('failed');
      throw error;
    });
  if (!outcome.is_error) {
    deps.metrics.proposalDecided('accepted');
    return true;
  }
  const marked = await decide(db, proposal.id, 'failed', outcome.result);
  if (marked === 0) throw conflict('this proposal was already decided');
  deps.metrics.proposalDecided('failed');
  return false;
}

/** Why a claim could not be taken; `unrunnable` when the proposal can never run. */
interface LostClaim {
  why: string;
  unrunnable: boolean;
}

/**
 * Takes the proposal for this accept, inside the transaction that runs it:
 * null when taken, else why not — decided already, or no longer executable
 * (its answer is not the thread's newest, its project or environment is gone).
 */
async function claim(tx: Db, thread: ThreadRecord, proposal: ProposalRecord): Promise<LostClaim | null> {
  // Written with aliases: drizzle leaves a single table's columns unqualified, which a join would make ambiguous.
  const newest = sql`(select max(m.id) from messages m where m.thread_id = ${thread.id} and m.role = 'assistant')`;
  const projectExists = proposal.project ? sql<boolean>`exists (select 1 from projects p where p.slug = ${proposal.project})` : sql<boolean>`true`;
  const environmentExists =
    proposal.project && proposal.environment
      ? sql<boolean>`exists (select 1 from environments e inner join projects p on p.id = e.project_id
          where p.slug = ${proposal.project} and e.name = ${proposal.environment})`
      : sql<boolean>`true`;
  // One statement in the common case; only a claim that fails asks why.
  const claimed = await tx
    .update(proposals)
    .set({ status: 'accepted', decidedAt: new Date() })
    .where(and(eq(proposals.id, proposal.id), eq(proposals.status, 'pending'), eq(proposals.messageId, newest), projectExists, environmentExists))
    .returning({ id: proposals.id });
  if (claimed.length > 0) return null;
  const [now] = await tx
    .select({ status: proposals.status, newest: sql<boolean>`${proposals.messageId} = ${newest}`, projectExists, environmentExists })
    .from(proposals)
    .where(eq(proposals.id, proposal.id));
  if (now && now.status !== 'pending') return { why: `this proposal was already ${now.status}`, unrunnable: false };
  if (!now?.newest) return { why: REPLACED, unrunnable: true };
  if (!now.projectExists) return { why: `${NO_LONGER_EXECUTABLE}: project ${proposal.project} is gone`, unrunnable: true };
  return { why: `${NO_LONGER_EXECUTABLE}: environment ${proposal.environment} is gone`, unrunnable: true };
}

/** Rejects a waiting proposal: it changes nothing but the proposal, and is audited with it. */
export async function rejectProposal(deps: AssistantDeps, actor: Actor, thread: ThreadRecord, id: string): Promise<void> {
  const proposal = await findProposal(deps.db, thread, id);
  await perform(deps, actor, {
    name: 'proposal:reject',
    project: proposal.project,
    environment: proposal.environment,
    threadId: thread.id,
    proposalId: proposal.id,
    input: { tool: proposal.tool },
    refusal: null,
    run: async (tx) => {
      if ((await decide(tx, proposal.id, 'rejected', { error: `rejected by ${actor.operator.name}` })) > 0) return;
      throw conflict(`this proposal was already ${(await findProposal(tx, thread, id)).status}`);
    },
  });
  deps.metrics.proposalDecided('rejected');
}

/**
 * Accepts the newest answer's waiting proposals in order, in one transaction
 * with a savepoint each: the first that fails (or that someone else decided
 * meanwhile) rolls back to its savepoint, is recorded, and ends the run; the
 * ones before it stay accepted, the rest waiting. Accept-all answers 200 either way.
 */
export async function acceptAll(deps: AssistantDeps, operator: Operator, thread: ThreadRecord): Promise<void> {
  await deps.changes.transaction(deps.db, async (tx, touch) => {
    const newest = await newestAnswerId(tx, thread.id);
    if (newest === null) return;
    const waiting = await tx
      .select()
      .from(proposals)
      .where(and(eq(proposals.messageId, newest), eq(proposals.status, 'pending')))
      .orderBy(asc(proposals.position));
    const batch = new Batch(tx, touch);
    for (const proposal of waiting) {
      const accepted = await accept(deps, operator, thread, proposal, batch).catch((error: unknown) => {
        if (error instanceof AppError && error.kind === 'conflict') return false;
        throw error;
      });
      if (!accepted) return;
    }
  });
}

/** Moves a pending proposal to its decision; 0 when it was no longer pending. */
async function decide(db: Db, id: string, status: 'rejected' | 'failed', result: object | null): Promise<number> {
  const changed = await db
    .update(proposals)
    .set({ status, result, decidedAt: new Date() })
    .where(and(eq(proposals.id, id), eq(proposals.status, 'pending')))
    .returning({ id: proposals.id });
  return changed.length;
}

async function newestAnswerId(db: Db, threadId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.role, 'assistant')))
    .orderBy(desc(messages.id))
    .limit(1);
  return row?.id ?? null;
}

/** set_secret's value is the one place a parked `[secret:N]` turns back into its value. */
async function inputWithParkedValues(deps: AssistantDeps, db: Db, thread: ThreadRecord, proposal: ProposalRecord): Promise<unknown> {
  const input = proposal.input as Record<string, unknown>;
  if (proposal.tool !== 'set_secret') return input;
  const numbers = placeholdersIn(input.value);
  if (numbers.length === 0) return input;
  const rows = await db
    .select({ number: parkedSecrets.number, sealed: parkedSecrets.sealed })
    .from(parkedSecrets)
    .where(and(eq(parkedSecrets.threadId, thread.id), inArray(parkedSecrets.number, numbers)));
  const values = new Map(rows.map((r) => [r.number, deps.secretBox.open(r.sealed)]));
  return { ...input, value: unparkSecrets(input.value, (n) => values.get(n)) };
}
