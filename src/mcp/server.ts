// The one MCP server builder, for `ops mcp` (stdio) and `/mcp` (Streamable
// HTTP): tools/list and tools/call over a backend. The low-level Server fits a
// catalogue that is JSON Schema, fetched at run time, and validated by the
// executor; McpServer wants each tool registered up front with a Zod shape.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CONVERSATION_OUTPUT_SCHEMAS } from '../conversation/output-schemas.js';
import { AppError } from '../errors.js';
import type { ToolBackend } from './backend.js';
import type { ConnectionSettings } from './settings.js';
import { callResult, errorResult, isListed, mcpTool } from './tools.js';

export const SERVER_INFO = { name: 'aion-ops', version: '0.1.0' };

export const INSTRUCTIONS =
  'Aion Ops keeps the configuration of services as documents in projects and deploys them to environments. ' +
  'Every tool runs with the permissions of the operator whose token this connection uses; ' +
  'call whoami first to learn them. ' +
  'A refusal or failure is a result with isError and a sentence that says why.';

// The Server makes a validator for elicitation, which these servers never
// ask for; one shared instance keeps a server per HTTP request cheap.
const validator = new AjvJsonSchemaValidator();

export function buildMcpServer(backend: ToolBackend, settings: Pick<ConnectionSettings, 'readOnly' | 'only'>): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listedTools(backend, settings) }));

  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(backend, request.params.name, request.params.arguments ?? {}));

  return server;
}

/** The connection's tools as tools/list names them (either revision). */
export async function listedTools(backend: ToolBackend, settings: Pick<ConnectionSettings, 'readOnly' | 'only'>): Promise<McpTool[]> {
  // A failure here (the server gone) answers as a JSON-RPC error with its sentence.
  const tools = await backend.listTools();
  return tools.filter((tool) => isListed(tool, settings)).map(mcpTool);
}

/**
 * A tools/call's result. Whatever stops a call (no such tool, input that
 * misses the schema, the server gone) is a tool error with a sentence the
 * model can act on, as the SDK's own McpServer answers an unknown tool; what
 * is not an AppError is thrown (a JSON-RPC error). `/mcp` answers a lone
 * tools/call with it directly (streamable-http.ts).
 */
export async function callTool(backend: ToolBackend, name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  const declaresOutput = Object.hasOwn(CONVERSATION_OUTPUT_SCHEMAS, name);
  try {
    return callResult(await backend.callTool(name, input), declaresOutput);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.kind === 'not_found') return errorResult(`no such tool: ${name}; tools/list names this connection's tools`);
    return errorResult(error.message, declaresOutput);
  }
}

