// MCP clients for tests, made with the official SDK the way an MCP host makes
// them: `ops mcp` spawned on stdio from the build, and `/mcp` over
// Streamable HTTP.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OPS_BIN } from '../helpers/paths.js';

const CLIENT_INFO = { name: 'aion-tests', version: '1.0.0' };

export interface StdioConnection {
  client: Client;
  /** What `ops mcp` wrote on stderr. */
  stderr: string[];
}

/** `ops mcp` against a server, as the token's operator. */
export async function stdioClient(url: string, token: string, flags: string[] = []): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OPS_BIN, 'mcp', '--url', url, '--token', token, ...flags],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, stderr };
}

/** `/mcp` on a server, with the token and any X-Aion-* headers. */
export async function httpClient(url: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return client;
}

/** `ops mcp` that is expected to stop at start: its exit code and stderr. */
export function opsMcpExit(flags: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [OPS_BIN, 'mcp', ...flags], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  // `close`, not `exit`: on a loaded machine the output can still be in the pipes when the process has exited.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr, stdout })));
}

/** The tool's answer as the model reads it: the structured result, and the same as JSON text. */
export function answerOf(result: unknown): { isError: boolean; result: Record<string, unknown> } {
  const { isError, structuredContent, content } = result as CallToolResult;
  const [first] = content;
  if (first?.type !== 'text') throw new Error('the result has no text content');
  const fromText = JSON.parse(first.text) as Record<string, unknown>;
  // An error of a tool with an output schema is text only (src/mcp/tools.ts).
  if (isError && structuredContent === undefined) return { isError: true, result: fromText };
  if (JSON.stringify(fromText) !== JSON.stringify(structuredContent)) {
    throw new Error('the text and the structured content differ');
  }
  return { isError: isError === true, result: fromText };
}
