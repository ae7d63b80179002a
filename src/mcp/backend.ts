// What an MCP server built by server.ts serves: a catalogue and a way to run
// one of its tools. `/mcp` runs them in-process through the executor; `ops mcp`
// runs them on a remote Aion server over REST.
//
// callTool answers with the tool's own result (a refusal or a failure is a
// result with is_error). It throws AppError for what is not a tool's result:
// not_found (no such tool on this connection), invalid (the input misses the
// schema), bad_token or unavailable (the Aion server refused or went away).
import type { ToolCallResponse, ToolDescriptor } from '../tools/executor.js';

export interface ToolBackend {
  listTools(): Promise<ToolDescriptor[]>;
  callTool(name: string, input: Record<string, unknown>): Promise<ToolCallResponse>;
}
