// The cap on agents answering, counted across every server sharing the
// store: the running agent turns (their rows, while their lease lasts), in
// all and for one operator. Checked by the turn's claim, in its transaction,
// under one advisory lock, so two claims on two servers never both take the
// last place.
import { and, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { unavailable } from '../errors.js';
import type { Db } from '../store/db.js';
import { threads, turns } from '../store/schema.js';

/** "AION" and 1: the lock the claims of agent turns take in turn (two keys: apart from the migrations' one-key lock). */
const LOCK = sql`pg_advisory_xact_lock(${0x41_49_4f_4e}::int, ${1}::int)`;

export interface AgentLimits {
  /** AION_AGENT_MAX: agents answering at once, across the servers. */
  agentMax: number;
  /** AION_AGENT_PER_OPERATOR: of those, for one operator. */
  agentPerOperator: number;
  operatorId: string;
}

/**
 * Throws 503 with the sentence when another agent turn would pass either
 * limit. Call it in the claim's transaction before inserting the turn: the
 * lock is held until that transaction ends, so the next claim counts this one.
 */
export async function agentCapacity(tx: Db, limits: AgentLimits): Promise<void> {
  await tx.execute(sql`select ${LOCK}`);
  const [counted] = await tx
    .select({ all: count(), mine: sql<number>`count(*) filter (where ${threads.operatorId} = ${limits.operatorId})`.mapWith(Number) })
    .from(turns)
    .innerJoin(threads, eq(threads.id, turns.threadId))
    .where(and(isNotNull(turns.agent), isNull(turns.endedAt), gt(turns.leaseUntil, sql`now()`)));
  const { all = 0, mine = 0 } = counted ?? {};
  if (all >= limits.agentMax) {
    throw unavailable(`${all} agents are answering across the servers, the limit (AION_AGENT_MAX); try again in a moment`);
  }
  if (mine >= limits.agentPerOperator) {
    throw unavailable(`${mine} agents are answering for you already, the limit per operator (AION_AGENT_PER_OPERATOR); wait for one to finish`);
  }
}
