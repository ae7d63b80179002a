// Translates between our request and answer and the Messages API's, for the `anthropic` provider.
import type Anthropic from '@anthropic-ai/sdk';
import { canonicalMessage, type CanonicalMessage } from './canonical.js';
import { isJsonObject } from '../../validation/json-object.js';
import type { AssistantBlock, ModelRequest, ModelResponse, ModelTool, ModelUsage } from './types.js';

/** Room for a long answer with several tool calls; a turn's answers are short. */
const MAX_TOKENS = 4096;
const CACHED: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/**
 * The API reads its prompt as tools, then system, then messages, and caches
 * the prefix up to each block marked `cache_control` (four marks at most).
 * We mark four: the last tool (shared by every thread with the same tools),
 * the system block (the thread's scope), the newest message (what the next
 * call reads back), and the end of the previous call's messages (the block
 * just before the newest answer), so the next call finds the previous prefix
 * however many blocks came in between. Nothing before a mark changes from
 * call to call: messages are written one canonical way (canonical.ts).
 */
export function toCreateParams(request: ModelRequest, model: string): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: MAX_TOKENS,
    // The API refuses an empty text block, so an empty prompt is left out.
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: CACHED }] } : {}),
    ...(request.tools.length > 0 ? { tools: request.tools.map((tool, index, all) => toTool(tool, index === all.length - 1)) } : {}),
    messages: withMessageBreakpoints(request.messages.map(canonicalMessage)),
  };
}

function toTool(tool: ModelTool, last: boolean): Anthropic.Tool {
  return {
    name: tool.name,
    description: tool.description,
    // The API takes only object schemas; the catalogue's are objects already, which the SDK's type cannot know.
    input_schema: { ...tool.input_schema, type: 'object' },
    ...(last ? { cache_control: CACHED } : {}),
  };
}

function withMessageBreakpoints(messages: CanonicalMessage[]): Anthropic.MessageParam[] {
  const newestAnswer = messages.findLastIndex((message) => message.role === 'assistant');
  const marked = new Set([messages.length - 1, newestAnswer - 1].filter((index) => index >= 0));
  return messages.map((message, index) => {
    if (!marked.has(index)) return message;
    const content: Anthropic.ContentBlockParam[] = [...message.content];
    const last = content.pop();
    return { role: message.role, content: last ? [...content, { ...last, cache_control: CACHED }] : content };
  });
}

/**
 * Keeps the text and tool_use blocks; others (thinking, server tools) are not ours to store or replay.
 * A tool's input is an object by its input_schema; anything else reads as no input.
 */
export function fromMessage(message: Anthropic.Message): ModelResponse {
  const content = message.content.flatMap((block): AssistantBlock[] => {
    if (block.type === 'text') return [{ type: 'text', text: block.text }];
    if (block.type === 'tool_use') return [{ type: 'tool_use', id: block.id, name: block.name, input: isJsonObject(block.input) ? block.input : {} }];
    return [];
  });
  // stop_reason is null only mid-stream; a finished, non-streamed message always has one.
  return { content, stop_reason: message.stop_reason ?? 'end_turn', usage: usageOf(message) };
}

function usageOf(message: Anthropic.Message): ModelUsage {
  const { usage } = message;
  return {
    model: message.model,
    input_tokens: tokens(usage.input_tokens),
    output_tokens: tokens(usage.output_tokens),
    cache_creation_input_tokens: tokens(usage.cache_creation_input_tokens),
    cache_read_input_tokens: tokens(usage.cache_read_input_tokens),
  };
}

/** A count as the store and /metrics take it; an API that reports none (or nonsense) reports 0. */
function tokens(count: number | null): number {
  return Number.isSafeInteger(count) && count !== null && count > 0 ? count : 0;
}
