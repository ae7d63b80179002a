// What an agent reports of its own model's cost during a turn: `usage_update`
// session notifications (context used and size, the session's cumulative
// cost), the token counts a prompt response may carry (an unstable part of
// ACP: `usage` beside `stopReason`), and those Qwen Code puts on a message
// chunk's `_meta.usage`, one per model call. What it does not report stays unset.
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentTurnUsage } from '../assistant/usage.js';

/** The fields of a prompt response's `usage`, and where each is kept. */
const PROMPT_TOKENS = [
  ['inputTokens', 'inputTokens'],
  ['outputTokens', 'outputTokens'],
  ['thoughtTokens', 'thoughtTokens'],
  ['cachedReadTokens', 'cacheReadTokens'],
  ['cachedWriteTokens', 'cacheWriteTokens'],
] as const;

/** Counts the store holds (a Postgres integer); anything else is not a report. */
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : undefined;

export function noteUsageUpdate(usage: AgentTurnUsage, update: acp.UsageUpdate): void {
  const used = count(update.used);
  const size = count(update.size);
  if (used !== undefined && size !== undefined) {
    usage.contextUsed = used;
    usage.contextSize = size;
  }
  const cost = update.cost;
  if (cost && Number.isFinite(cost.amount) && cost.amount >= 0 && cost.currency.length > 0 && cost.currency.length <= 20) {
    usage.sessionCost = { amount: cost.amount, currency: cost.currency };
  }
}

/** The token counts of the prompt response's `usage`, when it carries one: the turn's, over any counted before. */
export function notePromptUsage(usage: AgentTurnUsage, response: acp.PromptResponse): void {
  const reported: unknown = (response as { usage?: unknown }).usage;
  if (typeof reported !== 'object' || reported === null) return;
  const fields = reported as Record<string, unknown>;
  for (const [from, to] of PROMPT_TOKENS) {
    const value = count(fields[from]);
    if (value !== undefined) usage[to] = value;
  }
}

/**
 * Qwen Code (0.24): each model call's token counts ride an otherwise empty
 * `agent_message_chunk` as `_meta.usage`, named as in a prompt response's
 * `usage`; the turn's are their sum. Its prompt response carries none.
 */
export function noteChunkUsage(usage: AgentTurnUsage, update: acp.SessionUpdate): void {
  if (update.sessionUpdate !== 'agent_message_chunk') return;
  const reported = update._meta?.usage;
  if (typeof reported !== 'object' || reported === null) return;
  const fields = reported as Record<string, unknown>;
  for (const [from, to] of PROMPT_TOKENS) {
    const value = count(fields[from]);
    const sum = value === undefined ? undefined : count((usage[to] ?? 0) + value);
    if (sum !== undefined) usage[to] = sum;
  }
}
