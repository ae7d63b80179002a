// What the model costs (DESIGN.md §4 "Cost"): each call's usage as the API
// reported it, stored with its turn, counted by model and kind for /metrics,
// and totalled for a thread's operator. An ACP agent calls its own model: what
// it reports of a turn (tokens, context, cost) is stored beside, and what it
// does not report stays null, never 0.
import { and, count, desc, eq, isNotNull, sum } from 'drizzle-orm';
import type { Metrics } from '../metrics.js';
import type { Db } from '../store/db.js';
import { agentUsage, modelCalls } from '../store/schema.js';
import type { AgentUsage, AgentUsageTotals } from '../wire/usage.js';
import type { ModelUsage } from './providers/types.js';

export interface UsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  agent: AgentUsageTotals | null;
}

/** What an agent reported of one turn; each field undefined where it said nothing. */
export interface AgentTurnUsage {
  agent: string;
  session: string;
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  contextUsed?: number;
  contextSize?: number;
  /** The session's cumulative cost, as its newest usage_update said. */
  sessionCost?: { amount: number; currency: string };
}

/** The calls of one turn: counted as they are answered, stored with the answer (or without one when the turn fails). */
export class TurnUsage {
  readonly calls: ModelUsage[] = [];

  constructor(private readonly metrics: Metrics) {}

  add(usage: ModelUsage | undefined): void {
    if (!usage) return;
    this.calls.push(usage);
    this.metrics.modelCalled(usage);
  }
}

/** Stores a turn's calls; `messageId` is its answer, null when it failed before one. */
export async function storeUsage(db: Db, threadId: string, messageId: number | null, calls: readonly ModelUsage[]): Promise<void> {
  if (calls.length === 0) return;
  await db.insert(modelCalls).values(
    calls.map((usage) => ({
      threadId,
      messageId,
      model: usage.model,
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens,
      cacheReadTokens: usage.cache_read_input_tokens,
    })),
  );
}

/** What is stored of an agent's turn: what it reported, and what the turn cost. */
export type AgentUsageRow = Omit<typeof agentUsage.$inferInsert, 'id' | 'messageId' | 'at'>;

/**
 * What to store of a turn an agent reported anything of (null when it reported
 * nothing): the turn's cost is the session's cumulative cost less what it was
 * after the session's previous turn (one turn runs at a time in a thread).
 */
export async function agentUsageRow(db: Db, threadId: string, usage: AgentTurnUsage): Promise<AgentUsageRow | null> {
  const { agent, session, sessionCost, ...reported } = usage;
  if (Object.keys(reported).length === 0 && !sessionCost) return null;
  let cost: number | null = null;
  if (sessionCost) {
    const [before] = await db
      .select({ sessionCost: agentUsage.sessionCost, currency: agentUsage.currency })
      .from(agentUsage)
      .where(and(eq(agentUsage.threadId, threadId), eq(agentUsage.session, session), isNotNull(agentUsage.sessionCost)))
      .orderBy(desc(agentUsage.id))
      .limit(1);
    const earlier = before?.currency === sessionCost.currency ? (before.sessionCost ?? 0) : 0;
    // A session whose cumulative cost went down counts afresh.
    cost = sessionCost.amount >= earlier ? sessionCost.amount - earlier : sessionCost.amount;
  }
  return { threadId, agent, session, ...reported, cost, sessionCost: sessionCost?.amount ?? null, currency: sessionCost?.currency ?? null };
}

/** Stores it with the turn's answer. */
export async function storeAgentUsage(db: Db, messageId: number, row: AgentUsageRow): Promise<void> {
  await db.insert(agentUsage).values({ ...row, messageId });
}

/** Counts it for /metrics, once stored. */
export function countAgentUsage(metrics: Pick<Metrics, 'agentReported'>, row: AgentUsageRow): void {
  const tokens = {
    inputTokens: row.inputTokens ?? undefined,
    outputTokens: row.outputTokens ?? undefined,
    thoughtTokens: row.thoughtTokens ?? undefined,
    cacheReadTokens: row.cacheReadTokens ?? undefined,
    cacheWriteTokens: row.cacheWriteTokens ?? undefined,
  };
  metrics.agentReported(row.agent, tokens, row.cost != null && row.currency ? { amount: row.cost, currency: row.currency } : null);
}

/** A thread's totals over every call of its turns, failed ones included; with what its agent reported when an agent holds it. */
export async function threadUsage(db: Db, threadId: string, agent: string | null): Promise<UsageTotals> {
  const [row] = await db
    .select({
      calls: count(),
      input: sum(modelCalls.inputTokens),
      output: sum(modelCalls.outputTokens),
      cacheWrite: sum(modelCalls.cacheWriteTokens),
      cacheRead: sum(modelCalls.cacheReadTokens),
    })
    .from(modelCalls)
    .where(eq(modelCalls.threadId, threadId));
  return {
    calls: row?.calls ?? 0,
    input_tokens: Number(row?.input ?? 0),
    output_tokens: Number(row?.output ?? 0),
    cache_creation_input_tokens: Number(row?.cacheWrite ?? 0),
    cache_read_input_tokens: Number(row?.cacheRead ?? 0),
    agent: agent === null ? null : await agentTotals(db, threadId, agent),
  };
}

/** Null where no turn reported it: an agent that reports nothing is "not reported", never 0. */
const reportedSum = (value: string | null) => (value === null ? null : Number(value));

async function agentTotals(db: Db, threadId: string, agent: string): Promise<AgentUsageTotals> {
  const [row] = await db
    .select({
      turns: count(),
      input: sum(agentUsage.inputTokens),
      output: sum(agentUsage.outputTokens),
      thought: sum(agentUsage.thoughtTokens),
      cacheRead: sum(agentUsage.cacheReadTokens),
      cacheWrite: sum(agentUsage.cacheWriteTokens),
    })
    .from(agentUsage)
    .where(eq(agentUsage.threadId, threadId));
  const costs = await db
    .select({ currency: agentUsage.currency, amount: sum(agentUsage.cost) })
    .from(agentUsage)
    .where(eq(agentUsage.threadId, threadId))
    .groupBy(agentUsage.currency);
  const [context] = await db
    .select({ used: agentUsage.contextUsed, size: agentUsage.contextSize })
    .from(agentUsage)
    .where(and(eq(agentUsage.threadId, threadId), isNotNull(agentUsage.contextUsed), isNotNull(agentUsage.contextSize)))
    .orderBy(desc(agentUsage.id))
    .limit(1);
  const cost = costs.flatMap((c) => (c.currency === null || c.amount === null ? [] : [{ amount: Number(c.amount), currency: c.currency }]));
  const usage: AgentUsage = {
    input_tokens: reportedSum(row?.input ?? null),
    output_tokens: reportedSum(row?.output ?? null),
    thought_tokens: reportedSum(row?.thought ?? null),
    cache_read_input_tokens: reportedSum(row?.cacheRead ?? null),
    cache_creation_input_tokens: reportedSum(row?.cacheWrite ?? null),
    context: context && context.used !== null && context.size !== null ? { used: context.used, size: context.size } : null,
    cost: cost.length > 0 ? cost : null,
  };
  return { name: agent, reported_turns: row?.turns ?? 0, ...usage };
}
