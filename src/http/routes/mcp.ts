// `/mcp`: the tools over MCP's Streamable HTTP, run in-process as the token's
// operator with via `mcp` (DESIGN.md §5); with a session credential, one
// conversation's tools (§6). X-Aion-Read-Only, X-Aion-Tools,
// X-Aion-Project and X-Aion-Environment set the connection; the executor
// enforces them, whatever the JSON-RPC body asks for. A foreign Origin or a
// rebinding Host is refused before the token is read (http/origins.ts).
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { DOCUMENT_BODY_LIMIT } from '../body-limits.js';
import { mayBeModern } from '../../mcp/revision.js';
import { operatorOf } from '../auth.js';

/** The MCP SDK weighs some 25 MB: it is loaded by the first request to /mcp. */
const loadMcp = async () => {
  const [conversation, executor, headers, http] = await Promise.all([
    import('../../mcp/conversation-backend.js'),
    import('../../mcp/executor-backend.js'),
    import('../../mcp/headers.js'),
    import('../../mcp/streamable-http.js'),
  ]);
  return { ...conversation, ...executor, ...headers, ...http };
};
let mcp: ReturnType<typeof loadMcp> | null = null;
/** The 2026-07-28 revision's SDK (@modelcontextprotocol/server 2.x): loaded by the first request that may speak it. */
const loadModernMcp = () => import('../../mcp/modern-http.js');
let modernMcp: ReturnType<typeof loadModernMcp> | null = null;

/** Aborted when the client goes away before its answer ends (what ends a 2026-07-28 event stream). */
function goneSignal(response: ServerResponse): AbortSignal {
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  return gone.signal;
}

export const mcpRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    config: { accepts: ['operator', 'session'], sameOrigin: true },
    // tools/call of write_document carries a whole document, JSON-escaped.
    bodyLimit: DOCUMENT_BODY_LIMIT,
    // Not in the OpenAPI document: MCP is its own protocol, whose errors are
    // JSON-RPC errors rather than {"error"} (test/mcp/fuzz.test.ts holds it to that).
    schema: { hide: true },
    handler: async (request, reply) => {
      const { answerMcpRequest, conversationBackend, executorBackend, settingsFromHeaders } = await (mcp ??= loadMcp());
      const settings = settingsFromHeaders(request.headers);
      const caller = request.caller;
      const backend =
        caller?.kind === 'session'
          ? conversationBackend(services.assistant, caller.operator, caller.threadId, settings)
          : executorBackend(services.executor, operatorOf(request), settings, request.beforeWrite);
      const mcpRequest = { method: request.method, headers: request.headers, body: request.body };
      // A POST in the 2026-07-28 envelope is that revision's (modern-http.ts); the rest is 2025-11-25's.
      const modern = mayBeModern(request.method, request.headers['mcp-protocol-version'], request.body)
        ? await (modernMcp ??= loadModernMcp())
        : null;
      const answer = modern?.isModernRequest(mcpRequest)
        ? await modern.answerModernRequest(backend, settings, mcpRequest, goneSignal(reply.raw))
        : await answerMcpRequest(backend, settings, mcpRequest);
      // One JSON document, sent as any route's answer is (with its length), or a 2026-07-28 event stream.
      return reply.code(answer.status).headers(answer.headers).send(answer.body ?? undefined);
    },
  });
};
