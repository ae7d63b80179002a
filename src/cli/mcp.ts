// `ops mcp`: an MCP server on stdio that proxies the tools of an Aion server
// over REST (DESIGN.md §5). Stdout is the protocol; every other word goes to
// stderr. A refused token or an unreachable server stops it at start. Both
// revisions: the split SDK's serveStdio reads the client's opening
// (initialize: 2025-11-25; server/discover or an enveloped request:
// 2026-07-28) and serves the connection with the one server builder of 2.x.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { AppError } from '../errors.js';
import { restrictionHeaders } from '../mcp/headers.js';
import type { ToolBackend } from '../mcp/backend.js';
import { restBackend } from '../mcp/rest-backend.js';
import { SESSION_PREFIX, sessionBackend } from '../mcp/session-backend.js';
import { buildModernServer } from '../mcp/modern-server.js';
import { versionGuardedStdio } from '../mcp/stdio-version-guard.js';
import { toolList, type ConnectionSettings } from '../mcp/settings.js';
import { clientFor, type ServerFlags } from './call.js';

export interface McpFlags extends ServerFlags {
  project?: string;
  environment?: string;
  onlyEnvironment?: string;
  readOnly?: boolean;
  tools?: string;
}

/** A session credential reaches only `/mcp`; every other token goes through the REST tool routes. */
async function connect(flags: McpFlags, settings: ConnectionSettings) {
  if (flags.token?.startsWith(SESSION_PREFIX)) return sessionBackend(flags.url, flags.token, settings);
  const client = clientFor(flags, { 'x-aion-via': 'mcp', ...restrictionHeaders(settings) });
  return { backend: restBackend(client, settings), close: () => client.close() };
}

/** Serves MCP on stdin/stdout until stdin ends; answers 1 when it cannot start. */
export async function serveMcp(flags: McpFlags, log: (line: string) => void): Promise<number> {
  if (flags.onlyEnvironment && flags.environment && flags.environment !== flags.onlyEnvironment) {
    log(`ops mcp: --environment ${flags.environment} lies outside --only-environment ${flags.onlyEnvironment}; give one of them`);
    return 2;
  }
  const settings: ConnectionSettings = {
    readOnly: flags.readOnly ?? false,
    only: toolList(flags.tools),
    project: flags.project ?? null,
    // The fence fills too: a call that leaves the environment out lands inside it.
    environment: flags.environment ?? flags.onlyEnvironment ?? null,
    onlyEnvironment: flags.onlyEnvironment ?? null,
  };
  let connection: { backend: ToolBackend; close(): void | Promise<void> } | undefined;
  let names: string[];
  try {
    connection = await connect(flags, settings);
    names = (await connection.backend.listTools()).map((tool) => tool.name);
  } catch (error) {
    await connection?.close();
    if (!(error instanceof AppError)) throw error;
    log(`ops mcp: ${error.message}`);
    return 1;
  }
  const { backend } = connection;
  const unknown = [...(settings.only ?? [])].filter((name) => !names.includes(name));
  if (unknown.length > 0) log(`ops mcp: --tools names tools the server does not have: ${unknown.join(', ')}`);

  const served = serveStdio(() => buildModernServer(backend, settings), {
    transport: versionGuardedStdio(),
    onerror: (error) => log(`ops mcp: ${error.message}`),
  });
  // The client closes stdin when it is done with us; so are we.
  process.stdin.once('end', () => {
    void served.close().finally(() => connection?.close());
  });
  log(`ops mcp: serving the tools of ${flags.url} on stdio${settings.readOnly ? ', read-only' : ''}`);
  return 0;
}
