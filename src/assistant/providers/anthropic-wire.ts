// Translates between our request and answer and the Messages API's, for the `anthropic` provider.
import type Anthropic from '@anthropic-ai/sdk';
import { isJsonObject } from './json-object.js';
import type { AssistantBlock, ModelRequest, ModelResponse, ModelTool } from './types.js';

/** Room for a long answer with several tool calls; a turn's answers are short. */
const MAX_TOKENS = 4096;
const CACHED: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/**
 * The tools, then the system prompt, are the same prefix of every call in a thread:
 * a cache breakpoint on the last tool and on the system block lets Anthropic
 * reuse them (prompt caching) instead of billing them in full each call.
 */
export function toCreateParams(request: ModelRequest, model: string): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: MAX_TOKENS,
    // The API refuses an empty text block, so an empty prompt is left out.
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: CACHED }] } : {}),
    ...(request.tools.length > 0 ? { tools: request.tools.map((tool, index, all) => toTool(tool, index === all.length - 1)) } : {}),
    messages: request.messages,
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
  return { content, stop_reason: message.stop_reason ?? 'end_turn' };
}
