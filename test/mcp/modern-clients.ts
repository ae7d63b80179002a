// MCP clients of the split SDK (@modelcontextprotocol/client 2.x), as a host
// of either revision makes them: pinned to 2026-07-28 (server/discover, then
// stateless requests in the per-request envelope) or in its default legacy
// mode (initialize, 2025-11-25).
import { Client, StreamableHTTPClientTransport, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { OPS_BIN } from '../helpers/paths.js';

const CLIENT_INFO = { name: 'aion-tests-2x', version: '1.0.0' };

export type Revision = '2026-07-28' | '2025-11-25';

/** A host's form: what its user answers an elicitation with. */
export type Elicit = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** `elicit`: the client declares form elicitation and answers with it (in 2026-07-28, the input requests of an input_required result). */
function newClient(revision: Revision, elicit?: Elicit): Client {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: revision === '2026-07-28' ? { pin: revision } : 'legacy' },
    ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
  });
  if (elicit) client.setRequestHandler('elicitation/create', elicit);
  return client;
}

/** `/mcp` on a server, with the token and any X-Aion-* headers, speaking `revision`. */
export async function httpClient2x(
  url: string,
  token: string,
  headers: Record<string, string> = {},
  revision: Revision = '2026-07-28',
  elicit?: Elicit,
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const client = newClient(revision, elicit);
  await client.connect(transport);
  return client;
}

/** `ops mcp` against a server, as the token's operator, speaking `revision`. */
export async function stdioClient2x(url: string, token: string, flags: string[] = [], revision: Revision = '2026-07-28', elicit?: Elicit): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OPS_BIN, 'mcp', '--url', url, '--token', token, ...flags],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  });
  const client = newClient(revision, elicit);
  await client.connect(transport);
  return client;
}
