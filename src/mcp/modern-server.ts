// The MCP server of the split SDK (@modelcontextprotocol/server 2.x) over a
// backend: the same catalogue and calls as server.ts's 1.x server, with the
// 2026-07-28 revision's cache hints. `/mcp` builds one per 2026-07-28 request
// (modern-http.ts); `ops mcp` one per connection, of either revision.
import { Server, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { ToolBackend } from './backend.js';
import { elicitsForms, offerOperatorInput, operatorInput } from './secret-input.js';
import { callTool, INSTRUCTIONS, listedTools, SERVER_INFO } from './server.js';
import type { ConnectionSettings } from './settings.js';

/**
 * How long a client may keep a tool list or the server's discovery: the
 * catalogue changes only with a deploy of the server, and a list kept past one
 * costs at most a "no such tool" result. The list is the caller's (its token,
 * its X-Aion-* filters, a session's conversation tools): private, never shared.
 */
const CATALOGUE_TTL_MS = 5 * 60_000;

export type Settings = Pick<ConnectionSettings, 'readOnly' | 'only'>;

// One shared validator, as server.ts does for the 2025 server: a server is built per request.
const validator = new AjvJsonSchemaValidator();

export function buildModernServer(backend: ToolBackend, settings: Settings): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
    cacheHints: {
      'tools/list': { ttlMs: CATALOGUE_TTL_MS, cacheScope: 'private' },
      // Capabilities and identity are the same for every caller.
      'server/discover': { ttlMs: CATALOGUE_TTL_MS, cacheScope: 'public' },
    },
  });
  // The same tools as the 2025 list: 2.x types JSON Schema values more narrowly than 1.x.
  // A client that elicits forms may leave a secret's value to its operator (secret-input.ts).
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const tools = (await listedTools(backend, settings)) as Tool[];
    return { tools: elicitsForms(ctx.mcpReq) ? offerOperatorInput(tools) : tools };
  });
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { name } = request.params;
    const asked = operatorInput(name, request.params.arguments ?? {}, ctx.mcpReq);
    return 'answer' in asked ? asked.answer : callTool(backend, name, asked.input);
  });
  return server;
}
