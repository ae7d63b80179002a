// What the model costs (DESIGN.md §4 "Cost"): each call's usage as the API
// reported it, stored with its turn, counted by model and kind for /metrics,
// and totalled for a thread's operator.
import { count, eq, sum } from 'drizzle-orm';
import type { Metrics } from '../metrics.js';
import type { Db } from '../store/db.js';
import { modelCalls } from '../store/schema.js';
import type { ModelUsage } from './providers/types.js';

export interface UsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
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

/** A thread's totals over every call of its turns, failed ones included. */
export async function threadUsage(db: Db, threadId: string): Promise<UsageTotals> {
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
  };
}
