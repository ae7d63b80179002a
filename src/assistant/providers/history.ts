// Trims a thread's history to the context budget, oldest first (DESIGN.md §4 "Cost").
import { newestUserMessageIndex, toolResults } from './message-parts.js';
import type { ModelMessage } from './types.js';

/** A rough, tokenizer-free estimate: about four characters of JSON per token. */
const CHARS_PER_TOKEN = 4;

/**
 * The newest messages that fit in `budgetTokens`, dropping the oldest first.
 *
 * The kept history starts at a user message that carries no tool results:
 * the Messages API requires a user message first, and a cut there never
 * separates a tool_use (assistant) from its tool_result (the next user
 * message), so such pairs go together. The newest user message with text
 * is always kept, even when it alone is over the budget; a history with
 * none has nothing to answer and trims to nothing.
 */
export function trimHistory(messages: readonly ModelMessage[], budgetTokens: number): ModelMessage[] {
  const newest = newestUserMessageIndex(messages);
  if (newest === -1) return [];
  const starts = [...messages.keys()].filter((index) => index <= newest && canStartHistory(messages[index]));
  const sizes = messages.map((message) => JSON.stringify(message).length);
  let keptChars = sizes.reduce((total, size) => total + size, 0);
  let dropped = 0;
  for (const start of starts) {
    for (; dropped < start; dropped += 1) keptChars -= sizes[dropped] ?? 0;
    if (keptChars <= budgetTokens * CHARS_PER_TOKEN) return messages.slice(start);
  }
  // Over budget even from the newest user message: keep the least we may
  // (all of it when no user message can start it, a history already malformed).
  return messages.slice(starts.at(-1) ?? 0);
}

function canStartHistory(message: ModelMessage | undefined): boolean {
  return message?.role === 'user' && toolResults(message).length === 0;
}
