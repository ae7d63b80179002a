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
    annotations:
      tool.tag === 'read' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: true },
  };
}

/** The tool's result both as structured content and as JSON text, for clients that read only text. */
export function callResult({ is_error, result }: Pick<ToolCallResponse, 'is_error' | 'result'>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result,
    isError: is_error,
  };
}

/** A sentence as a tool error the model reads and can act on. */
export function errorResult(sentence: string): CallToolResult {
  return callResult({ is_error: true, result: { error: sentence } });
}
