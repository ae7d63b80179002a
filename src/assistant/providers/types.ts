// What the assistant asks of a model, in the Messages API's own shapes (the
// `fake` model speaks them too), so a turn's raw blocks can be stored and
// replayed as they were.

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** The tool's result as JSON text. */
  content: string;
  is_error?: boolean;
}

export type AssistantBlock = TextBlock | ToolUseBlock;
export type UserBlock = TextBlock | ToolResultBlock;

export type ModelMessage = { role: 'user'; content: string | UserBlock[] } | { role: 'assistant'; content: AssistantBlock[] };

export interface ModelTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  /** Scope, role and rules of the thread. */
  system: string;
  /** Oldest first; already trimmed to the context budget. */
  messages: ModelMessage[];
  /** The tools the operator may run in the thread's scope. */
  tools: ModelTool[];
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | string;

/** What one call cost, as the API reported it (the Messages API's names). */
export interface ModelUsage {
  model: string;
  /** Input tokens neither read from nor written to the prompt cache, billed at the input price. */
  input_tokens: number;
  output_tokens: number;
  /** Input tokens written to the prompt cache (billed above the input price). */
  cache_creation_input_tokens: number;
  /** Input tokens served from the prompt cache (billed at a tenth of it). */
  cache_read_input_tokens: number;
}

export interface ModelResponse {
  content: AssistantBlock[];
  stop_reason: StopReason;
  /** Absent when the model costs nothing (the `fake` one). */
  usage?: ModelUsage;
}

export interface ModelProvider {
  readonly name: 'anthropic' | 'fake';
  /** Resolves with the model's answer; rejects with ProviderError when the provider did not answer. */
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}

/** The provider did not answer: a turn that meets it answers 503 with this sentence. */
export class ProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderError';
  }
}
