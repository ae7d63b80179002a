// Deciding proposals. Accepting claims the proposal, runs its tool through the
// executor as the accepting operator and stores the result — claim, effect and
// audit in one transaction — so it runs once however many accepts race, on
// however many servers. Rejecting changes nothing but the proposal.
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { messages, parkedSecrets, proposals } from '../store/schema.js';
import type { AssistantDeps } from './deps.js';
import { placeholdersIn, unparkSecrets } from './parking.js';
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
  const proposal = await findProposal(deps.db, thread, id);
  if (proposal.status !== 'pending') throw conflict(`this proposal was already ${proposal.status}`);
  await ensureExecutable(deps, operator, thread, proposal);

  const outcome = await deps.executor.run(
    { operator, via: 'assistant', threadId: thread.id, proposalId: proposal.id },
    proposal.tool,
    await inputWithParkedValues(deps, thread, proposal),
    {
      claim: async (tx) => (await decide(tx, proposal.id, 'accepted', null)) > 0,
      settle: async (tx, result) => {
        await tx.update(proposals).set({ result }).where(eq(proposals.id, proposal.id));
      },
    },
  );
  if (!outcome.is_error) {
    deps.metrics.proposalDecided('accepted');
    return true;
  }
  const marked = await decide(deps.db, proposal.id, 'failed', outcome.result);
  if (marked === 0) throw conflict('this proposal was already decided');
  deps.metrics.proposalDecided('failed');
  return false;
}

export async function rejectProposal(deps: AssistantDeps, operator: Operator, thread: ThreadRecord, id: string): Promise<void> {
  const proposal = await findProposal(deps.db, thread, id);
  const result = { error: `rejected by ${operator.name}` };
  if ((await decide(deps.db, proposal.id, 'rejected', result)) === 0) {
    throw conflict(`this proposal was already ${(await findProposal(deps.db, thread, id)).status}`);
  }
  deps.metrics.proposalDecided('rejected');
  deps.audit.record({
    operator: operator.name,
    via: 'assistant',
    tool: 'proposal:reject',
    project: proposal.project,
    environment: proposal.environment,
    threadId: thread.id,
    proposalId: proposal.id,
    outcome: 'ok',
    input: { tool: proposal.tool },
  });
}

/** Accepts the newest answer's waiting proposals in order, stopping at the first that fails. */
export async function acceptAll(deps: AssistantDeps, operator: Operator, thread: ThreadRecord): Promise<void> {
  const newest = await newestAnswerId(deps.db, thread.id);
  if (newest === null) return;
  const waiting = await deps.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.messageId, newest), eq(proposals.status, 'pending')))
    .orderBy(asc(proposals.position));
  for (const { id } of waiting) {
    // One that fails, or that someone else decided meanwhile, ends the run: accept-all answers 200 either way.
    const accepted = await acceptProposal(deps, operator, thread, id).catch((error: unknown) => {
      if (error instanceof AppError && error.kind === 'conflict') return false;
      throw error;
    });
    if (!accepted) return;
  }
}

/** Moves a pending proposal to its decision; 0 when it was no longer pending. */
async function decide(db: Db, id: string, status: 'accepted' | 'rejected' | 'failed', result: object | null): Promise<number> {
  const changed = await db
    .update(proposals)
    .set({ status, result, decidedAt: new Date() })
    .where(and(eq(proposals.id, id), eq(proposals.status, 'pending')))
    .returning({ id: proposals.id });
  return changed.length;
}

/** Only the newest answer's proposals run, and only while their project and environment exist. */
async function ensureExecutable(deps: AssistantDeps, operator: Operator, thread: ThreadRecord, proposal: ProposalRecord) {
  if ((await newestAnswerId(deps.db, thread.id)) !== proposal.messageId) {
    throw conflict('this proposal is no longer executable: a newer answer replaced it');
  }
  if (!proposal.project) return;
  const project = await deps.projects.find(operator, proposal.project);
  if (!project) throw conflict(`this proposal is no longer executable: project ${proposal.project} is gone`);
  if (proposal.environment && !project.environments.some((e) => e.name === proposal.environment)) {
    throw conflict(`this proposal is no longer executable: environment ${proposal.environment} is gone`);
  }
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
async function inputWithParkedValues(deps: AssistantDeps, thread: ThreadRecord, proposal: ProposalRecord): Promise<unknown> {
  const input = proposal.input as Record<string, unknown>;
  if (proposal.tool !== 'set_secret') return input;
  const numbers = placeholdersIn(input.value);
  if (numbers.length === 0) return input;
  const rows = await deps.db
    .select({ number: parkedSecrets.number, sealed: parkedSecrets.sealed })
    .from(parkedSecrets)
    .where(and(eq(parkedSecrets.threadId, thread.id), inArray(parkedSecrets.number, numbers)));
  const values = new Map(rows.map((r) => [r.number, deps.secretBox.open(r.sealed)]));
  return { ...input, value: unparkSecrets(input.value, (n) => values.get(n)) };
}
