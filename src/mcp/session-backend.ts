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
    listTools: async () =>
      (await client.listTools()).tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        input_schema: tool.inputSchema as Record<string, unknown>,
        permission: null,
        tag: tool.annotations?.readOnlyHint ? ('read' as const) : ('write' as const),
        allowed: true,
      })),
    callTool: async (name, input) => {
      const answer = (await client.callTool({ name, arguments: input })) as CallToolResult;
      const result = (answer.structuredContent as Record<string, unknown> | undefined) ?? { error: 'the server sent no result' };
      return { tool: name, is_error: answer.isError === true, result };
    },
  };
  return { backend, close: () => client.close() };
}
