// Trims a thread's history to the context budget, oldest first, in steps
// (DESIGN.md §4 "Cost").
import { canonicalMessage } from './canonical.js';
import { toolResults, userText } from './message-parts.js';
import type { ModelMessage, ModelTool } from './types.js';

/** A rough, tokenizer-free estimate: about four characters of JSON per token. */
const CHARS_PER_TOKEN = 4;
/**
 * A trim drops whole turns until the history fills at most this share of the
 * budget, so the turns that follow append to an unchanged start (the prompt
 * cache keeps serving it) until the budget is reached again.
 */
const TRIM_TO = 0.75;

/** A request's own fields (model, max_tokens) and cache marks, beyond its tools, system and messages. */
const FRAMING_TOKENS = 100;

/** What is left of the context budget for the history: the whole request stays within it. */
export function historyBudget(contextTokens: number, system: string, tools: readonly ModelTool[]): number {
  const sent = JSON.stringify({ system: [{ type: 'text', text: system }], tools }).length;
  return contextTokens - Math.ceil(sent / CHARS_PER_TOKEN) - FRAMING_TOKENS;
}

/**
 * The newest messages that fit in `budgetTokens`, dropping the oldest first.
 *
 * Where the kept history starts depends only on the messages up to the point
 * where it last ran over the budget: read oldest first, each time the history
 * runs over, whole turns are dropped down to TRIM_TO of the budget. A longer
 * history therefore starts where a shorter one did until it runs over again.
 *
 * The kept history starts at a user message with text and no tool results:
 * the Messages API requires a user message first, and a cut there never
 * separates a tool_use (assistant) from its tool_result (the next user
 * message), so such pairs go together. The newest user message with text
 * is always kept, even when it alone is over the budget. A history with no
 * such start is malformed, not ours to repair: it is returned whole.
 */
export function trimHistory(messages: readonly ModelMessage[], budgetTokens: number): ModelMessage[] {
  const starts = [...messages.keys()].filter((index) => canStartHistory(messages[index]));
  // Counted as sent: the same message from memory or from the store has one size.
  const sizes = messages.map((message) => JSON.stringify(canonicalMessage(message)).length);
  const budget = budgetTokens * CHARS_PER_TOKEN;
  let next = 0;
  let start = starts[next] ?? 0;
  let kept = 0;
  for (let index = start; index < messages.length; index++) {
    kept += sizes[index] ?? 0;
    if (kept <= budget) continue;
    // Over: drop turns, oldest first, while one starts at or before this message.
    for (let cut = starts[next + 1]; kept > budget * TRIM_TO && cut !== undefined && cut <= index; cut = starts[next + 1]) {
      for (; start < cut; start++) kept -= sizes[start] ?? 0;
      next += 1;
    }
  }
  return messages.slice(start);
}

function canStartHistory(message: ModelMessage | undefined): boolean {
  return message !== undefined && userText(message) !== null && toolResults(message).length === 0;
}
