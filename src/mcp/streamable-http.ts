// MCP over Streamable HTTP, stateless: each POST gets its own server and
// transport, answers with plain JSON (no SSE stream), and forgets everything.
// Nothing ties a client to one server process, and a request's X-Aion-*
// headers are the whole of its connection's settings.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** Answers one HTTP request to the MCP endpoint with a server built for it. */
export async function answerMcpRequest(
  buildServer: () => Server,
  request: Request,
  parsedBody: unknown,
): Promise<Response> {
  // A stateless server has nothing to push on a GET stream and no session to
  // DELETE; the spec's answer to both is 405.
  if (request.method !== 'POST') return methodNotAllowed();
  const server = buildServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}

function methodNotAllowed(): Response {
  // -32000: the code the SDK's transports give their own refusals.
  const error = { code: -32000, message: 'this MCP endpoint is stateless: POST JSON-RPC messages to it' };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status: 405,
    headers: { allow: 'POST', 'content-type': 'application/json' },
  });
}
