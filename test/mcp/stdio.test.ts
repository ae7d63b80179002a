// What only `ops mcp` does: it stops at start, with one sentence, when the
// token is refused or the server is unreachable; it answers with sentences,
// not a crash, when the server goes away mid-session; it talks MCP alone on
// stdout and goes when its client closes stdin.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_BIN } from '../helpers/paths.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, opsMcpExit, stdioClient } from './clients.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

// The refusals at start are processes of their own that share nothing: side by side.
describe('ops mcp at start', () => {
  it.concurrent('stops with one sentence when the server refuses the token', async () => {
    const { code, stderr, stdout } = await opsMcpExit(['--url', server.url, '--token', `aion_${'A'.repeat(43)}`]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`ops mcp: the Aion server at ${server.url} refused the token; check --token or AION_TOKEN\n`);
  });

  it.concurrent('stops with one sentence when the server cannot be reached', async () => {
    const { code, stderr } = await opsMcpExit(['--url', 'http://127.0.0.1:1', '--token', server.demoTokens.ada ?? '']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'ops mcp: cannot reach the Aion server at http://127.0.0.1:1 (ECONNREFUSED); is it running there?\n',
    );
  });

  it.concurrent('stops when it has no token or no usable URL', async () => {
    const [noToken, badUrl] = await Promise.all([
      opsMcpExit(['--url', server.url]),
      opsMcpExit(['--url', 'localhost:8080', '--token', 'aion_x']),
    ]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toBe("ops: no token: pass --token or set AION_TOKEN (an operator's token)\n");
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toBe('ops: --url must be an http:// or https:// address; got localhost:8080\n');
  });

  it('says on stderr what it serves, and goes when the client closes stdin', async () => {
    const { client, stderr } = await stdioClient(server.url, server.demoTokens.ada ?? '', ['--read-only']);
    expect(stderr).toEqual([`ops mcp: serving the tools of ${server.url} on stdio, read-only`]);
    const started = Date.now();
    await client.close();
    // The SDK waits 2 s for the process to leave before it sends SIGTERM.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('warns about --tools names the server does not have', async () => {
    const flags = ['--tools', 'whoami,no_such'];
    const { client, stderr } = await stdioClient(server.url, server.demoTokens.ada ?? '', flags);
    expect(stderr[0]).toBe('ops mcp: --tools names tools the server does not have: no_such');
    await client.close();
  });
});

describe('ops mcp when the server goes away mid-session', () => {
  it('answers with a sentence, not a crash', async () => {
    const leaving = await startTestServer('pglite', { demo: true });
    const { client } = await stdioClient(leaving.url, leaving.demoTokens.ada ?? '');
    try {
      expect(answerOf(await client.callTool({ name: 'whoami', arguments: {} })).isError).toBe(false);
      await leaving.stop();
      const gone = `cannot reach the Aion server at ${leaving.url} (ECONNREFUSED); is it running there?`;
      for (let i = 0; i < 2; i++) {
        expect(answerOf(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({
          isError: true,
          result: { error: gone },
        });
      }
      await expect(client.listTools()).rejects.toThrow(gone);
    } finally {
      await client.close();
    }
  });
});

// serveStdio (2.4.0) checks a claimed revision on a connection's opening only;
// ops mcp checks every request's (src/mcp/stdio-version-guard.ts).
describe('ops mcp in 2026-07-28', () => {
  it('refuses a later request that claims a revision it does not speak, and still serves its own', async () => {
    const child = spawn(process.execPath, [OPS_BIN, 'mcp', '--url', server.url, '--token', server.demoTokens.ada ?? ''], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const envelope = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const ask = async (id: number, method: string, version: string) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: envelope(version) } })}\n`);
      const { value } = await answers.next();
      return JSON.parse(String(value)) as { id: number; result?: { supportedVersions?: string[] }; error?: { code: number; data?: unknown } };
    };
    try {
      expect((await ask(1, 'server/discover', '2026-07-28')).result?.supportedVersions).toEqual(['2026-07-28']);
      expect((await ask(2, 'tools/list', '2026-07-28')).result).toBeDefined();
      expect(await ask(3, 'server/discover', 'v999.0.0')).toMatchObject({
        id: 3,
        error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999.0.0' } },
      });
      expect((await ask(4, 'tools/list', '2026-07-28')).result).toBeDefined();
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
