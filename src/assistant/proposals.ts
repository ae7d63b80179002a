// Deciding proposals. Accepting claims the proposal (checking it is still
// executable), runs its tool through the executor as the accepting operator
// and stores the result — claim, effect and audit in one transaction — so it
// runs once however many accepts race, on however many servers. Where its
// environment requires two approvals, accepting opens a change request and
// the proposal is `requested` (shown as accepted, docs/decisions.md), out of
// its thread's way, until a second operator decides it. Rejecting changes nothing but the proposal, and
// withdraws the change request it waits on. A decision names what it decides
// on (DESIGN.md §14): Accept the fingerprint seen, Accept all the ids seen.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { perform, type Actor } from '../domain/actions.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { messages, parkedSecrets, proposals } from '../store/schema.js';
import type { Batch, BeforeWrite } from '../tools/executor.js';
import type { AssistantDeps } from './deps.js';
import { proposalFingerprint } from './fingerprint.js';
import { movedSinceProposed } from './proposal-staleness.js';
import { placeholdersIn, unparkSecrets } from './parking.js';
import { NO_LONGER_EXECUTABLE, REPLACED } from './proposing.js';
import type { ThreadRecord } from './threads.js';
import { threadChangeTopic } from '../turns/topics.js';

type ProposalRecord = typeof proposals.$inferSelect;

/** How an accept ended: ran, waits for others' approvals, or failed. */
type Accepted = 'accepted' | 'requested' | 'failed';

async function findProposal(db: Db, thread: ThreadRecord, id: string): Promise<ProposalRecord & { fingerprint: string }> {
  const [row] = isUuid(id)
    ? await db
        .select({ record: proposals, fingerprint: proposalFingerprint })
        .from(proposals)
        .where(and(eq(proposals.id, id), eq(proposals.threadId, thread.id)))
        .limit(1)
    : [];
  if (!row) throw notFound(`no such proposal: ${id} in this thread`);
  return { ...row.record, fingerprint: row.fingerprint };
}

/** What a decision names and asks first: the fingerprint seen, and the request's check before the write (Invocation.beforeWrite). */
interface Deciding {
  seen?: string | undefined;
  beforeWrite?: BeforeWrite | undefined;
}

/** Accepts one proposal — the one seen, when its fingerprint is given; how it ended. */
export async function acceptProposal(deps: AssistantDeps, operator: Operator, thread: ThreadRecord, id: string, { seen, beforeWrite }: Deciding = {}): Promise<Accepted> {
  const proposal = await findProposal(deps.db, thread, id);
  if (seen !== undefined && seen !== proposal.fingerprint) {
    throw conflict(
      `this proposal is not the one you saw: "${proposal.title}" has fingerprint ${proposal.fingerprint.slice(0, 12)}, not the ${seen.slice(0, 12)} you accepted; read the thread again`,
    );
  }
  try {
    return await accept(deps, operator, thread, proposal, { beforeWrite });
  } finally {
    await announceDecision(deps, thread);
  }
}

/** Every tab on every server following the thread hears that a proposal was decided (or failed to be). */
function announceDecision(deps: AssistantDeps, thread: ThreadRecord): Promise<void> {
  return deps.changes.announce(deps.db, [threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'decision' })]);
}

/** Accept-all's accepted proposals and their results, stored together when the batch ends. */
interface Settling {
  batch: Batch;
  results: { id: string; result: unknown }[];
}

/**
 * Claims the proposal and runs it as the accepting operator: in a
 * transaction of its own, or in a savepoint of a batch's (whose end stores
 * the result). A failure is recorded on the proposal; a claim that cannot be
 * taken is a conflict, and one that never can (no longer executable) also
 * fails the proposal.
 */
async function accept(
  deps: AssistantDeps,
  operator: Operator,
  thread: ThreadRecord,
  proposal: ProposalRecord,
  { settling, beforeWrite }: { settling?: Settling; beforeWrite?: BeforeWrite | undefined },
): Promise<Accepted> {
  const batch = settling?.batch;
  const db = batch?.tx ?? deps.db;
  let unrunnable: string | null = null;
  const outcome = await deps.executor
    .run(
      { operator, via: 'assistant', threadId: thread.id, proposalId: proposal.id, ...(beforeWrite ? { beforeWrite } : {}) },
      proposal.tool,
      await inputWithParkedValues(deps, db, thread, proposal),
      {
        claim: async (tx) => {
          const lost = await claim(tx, thread, proposal);
          if (lost?.unrunnable) unrunnable = lost.why;
          return lost?.why ?? null;
        },
        settle: async (tx, result) => {
          if (!settling) await tx.update(proposals).set({ result }).where(eq(proposals.id, proposal.id));
        },
        // Claimed, but held for others' approvals: requested, out of its thread's way, waiting on the change request.
        hold: async (tx, changeRequest) => {
          await tx.update(proposals).set({ status: 'requested', decidedAt: null, changeRequestId: changeRequest }).where(eq(proposals.id, proposal.id));
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
    if (outcome.changeRequest) return 'requested';
    settling?.results.push({ id: proposal.id, result: outcome.result });
    deps.metrics.proposalDecided('accepted');
    return 'accepted';
  }
  const marked = await decide(db, proposal.id, 'failed', outcome.result);
  if (marked === 0) throw conflict('this proposal was already decided');
  deps.metrics.proposalDecided('failed');
  return 'failed';
}

/** Why a claim could not be taken; `unrunnable` when the proposal can never run. */
interface LostClaim {
  why: string;
  unrunnable: boolean;
}

/**
 * Takes the proposal for this accept, inside the transaction that runs it:
 * null when taken, else why not — decided already, waiting on a change
 * request, or no longer executable (its answer is not the thread's newest,
 * its project or environment is gone).
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
  // One statement in the common case; only a claim that fails asks why. Its environment existing says its
  // project does too, and without a join the statement plans in half the time (accept-all claims fifty).
  const stillThere =
    proposal.project && proposal.environment
      ? sql<boolean>`exists (select 1 from environments e where e.name = ${proposal.environment}
          and e.project_id = (select p.id from projects p where p.slug = ${proposal.project}))`
      : projectExists;
  const claimed = await tx
    .update(proposals)
    .set({ status: 'accepted', decidedAt: new Date() })
    .where(
      and(
        eq(proposals.id, proposal.id),
        eq(proposals.status, 'pending'),
        isNull(proposals.changeRequestId),
        eq(proposals.messageId, newest),
        stillThere,
        // What it shows is still what would run (proposal-staleness.ts).
        sql`${movedSinceProposed} is null`,
      ),
    )
    .returning({ id: proposals.id });
  if (claimed.length > 0) return null;
  const [now] = await tx
    .select({
      status: proposals.status,
      changeRequest: proposals.changeRequestId,
      newest: sql<boolean>`${proposals.messageId} = ${newest}`,
      projectExists,
      environmentExists,
      moved: movedSinceProposed,
    })
    .from(proposals)
    .where(eq(proposals.id, proposal.id));
  if (now?.status === 'requested') {
    return { why: `this proposal was accepted already and waits on change request ${now.changeRequest ?? ''}: other operators approve or decline it`, unrunnable: false };
  }
  if (now && now.status !== 'pending') return { why: `this proposal was already ${now.status}`, unrunnable: false };
  // Stale: it stays waiting, its card saying why, until someone rejects it.
  if (now?.moved) return { why: `this proposal is stale, so it will not run: ${now.moved}`, unrunnable: false };
  if (!now?.newest) return { why: REPLACED, unrunnable: true };
  if (!now.projectExists) return { why: `${NO_LONGER_EXECUTABLE}: project ${proposal.project} is gone`, unrunnable: true };
  return { why: `${NO_LONGER_EXECUTABLE}: environment ${proposal.environment} is gone`, unrunnable: true };
}

/** Rejects a waiting proposal: it changes nothing but the proposal, and is audited with it. */
export async function rejectProposal(deps: AssistantDeps, actor: Actor, thread: ThreadRecord, id: string): Promise<void> {
  const proposal = await findProposal(deps.db, thread, id);
  let withdrew = 0;
  await perform(deps, actor, {
    name: 'proposal:reject',
    project: proposal.project,
    environment: proposal.environment,
    threadId: thread.id,
    proposalId: proposal.id,
    input: { tool: proposal.tool },
    refusal: null,
    run: async (tx, touch) => {
      touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'decision' }));
      // The change request first: approving one locks it before its proposal, and so does this.
      withdrew = await deps.changeRequests.withdrawWaiting(tx, touch, { proposal: proposal.id }, actor, 'its proposal was rejected');
      if ((await decide(tx, proposal.id, 'rejected', { error: `rejected by ${actor.operator.name}` }, ['pending', 'requested'])) > 0) return;
      throw conflict(`this proposal was already ${(await findProposal(tx, thread, id)).status}`);
    },
  });
  deps.metrics.proposalDecided('rejected');
  deps.changeRequests.withdrawn(withdrew);
}

/**
 * Accepts the newest answer's waiting proposals in order, in one transaction
 * with a savepoint each: the first that fails (or that someone else decided
 * meanwhile) rolls back to its savepoint, is recorded, and ends the run, and
 * so does the first that waits for others' approvals (it is requested, and
 * what follows may depend on it); the ones before stay accepted, the rest
 * waiting. With `seen` (the ids the operator saw), anything else waiting, or
 * a seen one no longer waiting, refuses the whole run with what changed.
 * Accept-all answers 200 otherwise.
 */
export async function acceptAll(
  deps: AssistantDeps,
  operator: Operator,
  thread: ThreadRecord,
  { seen, beforeWrite }: { seen?: readonly string[] | undefined; beforeWrite?: BeforeWrite | undefined } = {},
): Promise<void> {
  await deps.changes.transaction(deps.db, async (tx, touch) => {
    await beforeWrite?.(tx);
    const newest = await newestAnswerId(tx, thread.id);
    const waiting =
      newest === null
        ? []
        : await tx
            .select()
            .from(proposals)
            .where(and(eq(proposals.messageId, newest), eq(proposals.status, 'pending'), isNull(proposals.changeRequestId)))
            .orderBy(asc(proposals.position));
    if (seen) await assertAsSeen(tx, thread, waiting, seen);
    if (waiting.length > 0) touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'decision' }));
    await deps.executor.batch(tx, touch, async (batch) => {
      const settling: Settling = { batch, results: [] };
      for (const proposal of waiting) {
        const accepted = await accept(deps, operator, thread, proposal, { settling }).catch((error: unknown) => {
          if (error instanceof AppError && error.kind === 'conflict') return 'failed' as const;
          throw error;
        });
        if (accepted !== 'accepted') break;
      }
      await storeResults(tx, settling.results);
    });
  });
}

/** A conflict naming what changed when the waiting proposals are not exactly those the operator saw. */
async function assertAsSeen(tx: Db, thread: ThreadRecord, waiting: readonly ProposalRecord[], seen: readonly string[]): Promise<void> {
  const shown = new Set(seen);
  const unseen = waiting.filter((p) => !shown.has(p.id));
  if (unseen.length > 0) {
    const titles = unseen.map((p) => `"${p.title}"`).join(', ');
    throw conflict(`nothing was accepted: the newest answer holds ${unseen.length === 1 ? 'a proposal' : 'proposals'} you did not see (${titles}); read the thread again`);
  }
  const still = new Set(waiting.map((p) => p.id));
  const gone = [...shown].filter((id) => !still.has(id));
  if (gone.length === 0) return;
  const rows = await tx
    .select({ title: proposals.title, status: proposals.status, result: proposals.result })
    .from(proposals)
    .where(and(eq(proposals.threadId, thread.id), inArray(proposals.id, gone.filter(isUuid))));
  const said = rows.map((r) => `"${r.title}" is ${r.status}${errorOf(r.result)}`);
  const unknown = gone.length - rows.length;
  if (unknown > 0) said.push(`${unknown === 1 ? 'one is' : `${unknown} are`} not a proposal of this thread`);
  throw conflict(`nothing was accepted: not every proposal you saw still waits: ${said.join('; ')}; read the thread again`);
}

const errorOf = (result: unknown) => {
  const error = (result as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? ` (${error})` : '';
};

/** The results of accepted proposals, in one statement; they travel as one JSON parameter. */
async function storeResults(tx: Db, results: Settling['results']): Promise<void> {
  if (results.length === 0) return;
  await tx.execute(sql`
    update ${proposals} set result = settled.result
    from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as settled(id uuid, result jsonb)
    where ${proposals}.id = settled.id`);
}

/** Moves a waiting proposal (`from` these statuses) to its decision; 0 when it was no longer waiting. */
async function decide(db: Db, id: string, status: 'rejected' | 'failed', result: Record<string, unknown> | null, from: ProposalRecord['status'][] = ['pending']): Promise<number> {
  const changed = await db
    .update(proposals)
    .set({ status, result, decidedAt: new Date() })
    .where(and(eq(proposals.id, id), inArray(proposals.status, from)))
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
  const input = proposal.input;
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
