// The backend of `ops mcp --token aion_ses_…`: a session credential opens only
// `/mcp`, so the proxy speaks MCP to the server's `/mcp` (the conversation's
// tools, writes proposed on its thread) and serves the same on stdio.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';
import type { ToolBackend } from './backend.js';
import { restrictionHeaders } from './headers.js';
import type { ConnectionSettings } from './settings.js';
import { descriptorOf } from './tools.js';

export const SESSION_PREFIX = 'aion_ses_';

export async function sessionBackend(
  url: string,
  token: string,
  settings: ConnectionSettings,
): Promise<{ backend: ToolBackend; close(): Promise<void> }> {
  const client = new Client({ name: 'aion-ops-mcp', version: '0.1.0' });
  // Read-only and the tool filter travel to `/mcp`, whose executor enforces them.
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { ...restrictionHeaders(settings), authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
  } catch (error) {
    const refused = String((error as Error).message).includes('401');
    throw new AppError(
      refused ? 'bad_token' : 'unavailable',
      refused ? 'the server refused the session credential (expired, or its thread deleted?)' : `could not reach ${url}/mcp`,
    );
  }
  const backend: ToolBackend = {
    listTools: async () => (await client.listTools()).tools.map(descriptorOf),
    callTool: async (name, input) => {
      const answer = (await client.callTool({ name, arguments: input })) as CallToolResult;
      return { tool: name, is_error: answer.isError === true, result: resultOf(answer) };
    },
  };
  return { backend, close: () => client.close() };
}

/** The structured result, or (an error of a tool with an output schema) the JSON text. */
function resultOf(answer: CallToolResult): Record<string, unknown> {
  if (answer.structuredContent) return answer.structuredContent;
  const [first] = answer.content;
  if (first?.type === 'text') {
    try {
      return JSON.parse(first.text) as Record<string, unknown>;
    } catch {
      return { error: first.text };
    }
  }
  return { error: 'the server sent no result' };
}
