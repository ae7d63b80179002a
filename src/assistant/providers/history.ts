// Trims a thread's history to the context budget, oldest first (DESIGN.md §4 "Cost").
import { toolResults, userText } from './message-parts.js';
import type { ModelMessage } from './types.js';

/** A rough, tokenizer-free estimate: about four characters of JSON per token. */
const CHARS_PER_TOKEN = 4;

/**
 * The newest messages that fit in `budgetTokens`, dropping the oldest first.
 *
 * The kept history starts at a user message with text and no tool results:
 * the Messages API requires a user message first, and a cut there never
 * separates a tool_use (assistant) from its tool_result (the next user
 * message), so such pairs go together. The newest user message with text
 * is always kept, even when it alone is over the budget. A history with no
 * such start is malformed, not ours to repair: it is returned whole.
 */
export function trimHistory(messages: readonly ModelMessage[], budgetTokens: number): ModelMessage[] {
  // Every possible start is a user message with text, so none comes after the newest one.
  const starts = [...messages.keys()].filter((index) => canStartHistory(messages[index]));
  const sizes = messages.map((message) => JSON.stringify(message).length);
  let keptChars = sizes.reduce((total, size) => total + size, 0);
  let dropped = 0;
  for (const start of starts) {
    for (; dropped < start; dropped += 1) keptChars -= sizes[dropped] ?? 0;
    if (keptChars <= budgetTokens * CHARS_PER_TOKEN) return messages.slice(start);
  }
  // Over budget even from the newest possible start: keep the least we may.
  return messages.slice(starts.at(-1) ?? 0);
}

function canStartHistory(message: ModelMessage | undefined): boolean {
  return message !== undefined && userText(message) !== null && toolResults(message).length === 0;
}
