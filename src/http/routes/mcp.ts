// `/mcp`: the tools over MCP's Streamable HTTP, run in-process as the token's
// operator with via `mcp` (DESIGN.md §5); with a session credential, one
// conversation's tools (§6). X-Aion-Read-Only, X-Aion-Tools,
// X-Aion-Project and X-Aion-Environment set the connection; the executor
// enforces them, whatever the JSON-RPC body asks for.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { conversationBackend } from '../../mcp/conversation-backend.js';
import { executorBackend } from '../../mcp/executor-backend.js';
import { settingsFromHeaders } from '../../mcp/headers.js';
import { buildMcpServer } from '../../mcp/server.js';
import { answerMcpRequest } from '../../mcp/streamable-http.js';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';

export const mcpRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    config: { accepts: ['operator', 'session'] },
    // Not in the OpenAPI document: MCP is its own protocol, whose errors are
    // JSON-RPC errors rather than {"error"} (test/mcp/fuzz.test.ts holds it to that).
    schema: { hide: true },
    handler: async (request, reply) => {
      const settings = settingsFromHeaders(request.headers);
      const caller = request.caller;
      const backend =
        caller?.kind === 'session'
          ? conversationBackend(services.assistant, caller.operator, caller.threadId)
          : executorBackend(services.executor, operatorOf(request), settings);
      const buildServer = () => buildMcpServer(backend, settings);
      return reply.send(await answerMcpRequest(buildServer, webRequest(request), request.body));
    },
  });
};

/** The request as the SDK's web-standard transport reads it: method and headers (the body is parsed already). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The transport never reads the origin; a fixed one keeps an odd Host header from failing the request.
  return new Request(new URL(request.url, 'http://aion.local'), { method: request.method, headers });
}
