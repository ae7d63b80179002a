// `/mcp`: the tools over MCP's Streamable HTTP, run in-process as the token's
// operator with via `mcp` (DESIGN.md §5); with a session credential, one
// conversation's tools (§6). X-Aion-Read-Only, X-Aion-Tools,
// X-Aion-Project and X-Aion-Environment set the connection; the executor
// enforces them, whatever the JSON-RPC body asks for. A foreign Origin or a
// rebinding Host is refused before the token is read (http/origins.ts).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { operatorOf } from '../auth.js';

/** The MCP SDK weighs some 25 MB: it is loaded by the first request to /mcp. */
const loadMcp = async () => {
  const [conversation, executor, headers, server, http] = await Promise.all([
    import('../../mcp/conversation-backend.js'),
    import('../../mcp/executor-backend.js'),
    import('../../mcp/headers.js'),
    import('../../mcp/server.js'),
    import('../../mcp/streamable-http.js'),
  ]);
  return { ...conversation, ...executor, ...headers, ...server, ...http };
};
let mcp: ReturnType<typeof loadMcp> | null = null;

export const mcpRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    config: { accepts: ['operator', 'session'], sameOrigin: true },
    // Not in the OpenAPI document: MCP is its own protocol, whose errors are
    // JSON-RPC errors rather than {"error"} (test/mcp/fuzz.test.ts holds it to that).
    schema: { hide: true },
    handler: async (request, reply) => {
      const { answerMcpRequest, buildMcpServer, conversationBackend, executorBackend, settingsFromHeaders } = await (mcp ??= loadMcp());
      const settings = settingsFromHeaders(request.headers);
      const caller = request.caller;
      const backend =
        caller?.kind === 'session'
          ? conversationBackend(services.assistant, caller.operator, caller.threadId, settings)
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
