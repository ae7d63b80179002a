// Questions about Messages-API history that both the fake model and the
// history trimmer ask, answered once so that they agree.
import type { ModelMessage, ToolResultBlock, ToolUseBlock } from './types.js';

export function toolUses(message: ModelMessage): ToolUseBlock[] {
  if (message.role !== 'assistant') return [];
  return message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}

export function toolResults(message: ModelMessage): ToolResultBlock[] {
  if (message.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

/** What the operator wrote in a user message, or null when it carries only tool results. */
export function userText(message: ModelMessage): string | null {
  if (message.role !== 'user') return null;
  if (typeof message.content === 'string') return message.content;
  const texts = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  return texts.length > 0 ? texts.join('\n') : null;
}

/** Index of the newest user message that has text (tool-result-only messages are not one), or -1. */
export function newestUserMessageIndex(messages: readonly ModelMessage[]): number {
  return messages.findLastIndex((message) => userText(message) !== null);
}
