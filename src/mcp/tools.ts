// Aion's tool types in MCP's terms: a descriptor becomes an MCP tool with its
// annotations, and a tool's answer becomes a tools/call result.
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import type { ConnectionSettings } from './settings.js';

/** Whether a tool is listed on a connection with these settings. */
export function isListed(tool: ToolDescriptor, settings: Pick<ConnectionSettings, 'readOnly' | 'only'>): boolean {
  if (settings.readOnly && tool.tag === 'write') return false;
  return settings.only === null || settings.only.has(tool.name);
}

export function mcpTool(tool: ToolDescriptor): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object', ...tool.input_schema },
    ...(tool.output_schema ? { outputSchema: { type: 'object', ...tool.output_schema } } : {}),
    annotations: annotationsOf(tool),
  };
}

function annotationsOf(tool: ToolDescriptor): McpTool['annotations'] {
  if (tool.tag === 'write') return { readOnlyHint: false, destructiveHint: true };
  // It changes the editor's unsaved text, which the operator sees and may undo.
  if (tool.edits_buffer) return { readOnlyHint: false, destructiveHint: false };
  return { readOnlyHint: true };
}

/** A descriptor read back from an MCP listing (what `ops mcp` proxies for a session credential). */
export function descriptorOf(tool: McpTool): ToolDescriptor {
  const editsBuffer = tool.annotations?.readOnlyHint === false && tool.annotations.destructiveHint === false;
  return {
    name: tool.name,
    description: tool.description ?? '',
    input_schema: tool.inputSchema as Record<string, unknown>,
    permission: null,
    tag: tool.annotations?.readOnlyHint || editsBuffer ? 'read' : 'write',
    allowed: true,
    ...(tool.outputSchema ? { output_schema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(editsBuffer ? { edits_buffer: true as const } : {}),
  };
}

/**
 * The tool's result both as structured content and as JSON text, for clients
 * that read only text. An error of a tool that declares an output schema is
 * text only: clients check structured content against that schema, and a
 * sentence is not what it describes.
 */
export function callResult(
  { is_error, result }: Pick<ToolCallResponse, 'is_error' | 'result'>,
  declaresOutput = false,
): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    ...(is_error && declaresOutput ? {} : { structuredContent: result }),
    isError: is_error,
  };
}

/** A sentence as a tool error the model reads and can act on. */
export function errorResult(sentence: string, declaresOutput = false): CallToolResult {
  return callResult({ is_error: true, result: { error: sentence } }, declaresOutput);
}
