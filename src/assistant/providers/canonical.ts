// One way to write a model message, whether it comes from memory (this turn)
// or from the store (a jsonb column, which reorders object keys): the same
// history is then the same bytes on every call, so the model API's prompt
// cache can serve it (DESIGN.md §4 "Cost").
import { isJsonObject } from '../../validation/json-object.js';
import type { AssistantBlock, ModelMessage, UserBlock } from './types.js';

export type CanonicalMessage = { role: 'user'; content: UserBlock[] } | { role: 'assistant'; content: AssistantBlock[] };

/** Blocks always as an array, each block's keys in one order, a tool's input with its keys sorted at every depth. */
export function canonicalMessage(message: ModelMessage): CanonicalMessage {
  if (message.role === 'assistant') return { role: 'assistant', content: message.content.map(canonicalAssistantBlock) };
  const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
  return { role: 'user', content: blocks.map(canonicalUserBlock) };
}

function canonicalAssistantBlock(block: AssistantBlock): AssistantBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_use', id: block.id, name: block.name, input: sortedKeys(block.input) };
}

function canonicalUserBlock(block: UserBlock): UserBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content, ...(block.is_error ? { is_error: true } : {}) };
}

function sortedKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedValue(value[key])]),
  );
}

function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  return isJsonObject(value) ? sortedKeys(value) : value;
}
