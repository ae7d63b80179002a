// `ops tools` and `ops call`: the tool routes from a shell, through the same
// client as `ops mcp`.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_BIN } from '../helpers/paths.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ops(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [OPS_BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // `close`, not `exit`: on a loaded machine the output can still be in the pipes when the process has exited.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('ops tools', () => {
  it('prints each tool with its tag, permission and whether the caller may run it there', async () => {
    const env = { AION_URL: server.url, AION_TOKEN: server.demoTokens.vic ?? '' };
    const { code, stdout } = await ops(['tools', '--project', 'shop'], env);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^name +tag +permission +allowed$/);
    const row = (name: string) => lines.find((line) => line.startsWith(`${name} `))?.split(/ +/);
    expect(row('list_environments')).toEqual(['list_environments', 'read', 'project:read', 'yes']);
    expect(row('create_environment')).toEqual(['create_environment', 'write', 'environment:manage', 'no']);
    expect(row('whoami')).toEqual(['whoami', 'read', '-', 'yes']);
  });
});

describe('ops call', () => {
  const as = (operator: string) => ['--url', server.url, '--token', server.demoTokens[operator] ?? ''];

  it('prints the answer as JSON and exits 0', async () => {
    const { code, stdout } = await ops(['call', 'list_environments', '--input', '{"project":"shop"}', ...as('dev')]);
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { tool: string; is_error: boolean; result: { project: string } };
    expect([answer.tool, answer.is_error, answer.result.project]).toEqual(['list_environments', false, 'shop']);
  });

  it('prints a refusal as JSON and exits 1', async () => {
    const input = '{"project":"shop","name":"qa"}';
    const { code, stdout } = await ops(['call', 'create_environment', '--input', input, ...as('vic')]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      tool: 'create_environment',
      is_error: true,
      result: { error: 'you need environment:manage on shop; your role there is viewer' },
    });
  });

  it('exits 2 with a sentence when the call does not run', async () => {
    const cases: [string[], string][] = [
      [
        ['call', 'drop_tables', ...as('ada')],
        'ops call: no such tool: drop_tables; GET /api/v1/assistant/tools lists them',
      ],
      [
        ['call', 'whoami', '--input', '{"verbose":true}', ...as('ada')],
        'ops call: whoami: input has an unknown property verbose; remove it',
      ],
      [
        ['call', 'whoami', '--input', '[1]', ...as('ada')],
        `ops: --input must be a JSON object, e.g. --input '{"project":"shop"}'`,
      ],
      [
        ['call', 'whoami', '--url', server.url, '--token', 'aion_nope'],
        `ops call: the Aion server at ${server.url} refused the token; check --token or AION_TOKEN`,
      ],
    ];
    // Side by side: each is a process of its own.
    const runs = await Promise.all(cases.map(([args]) => ops(args)));
    expect(runs.map(({ code, stdout, stderr }) => [code, stdout, stderr])).toEqual(cases.map(([, sentence]) => [2, '', `${sentence}\n`]));
  });
});

describe('ops mcp', () => {
  it('exits 2 with a sentence when --environment lies outside --only-environment', async () => {
    const { code, stderr } = await ops(['mcp', '--url', server.url, '--token', server.demoTokens.ada ?? '', '--environment', 'production', '--only-environment', 'staging']);
    expect(code).toBe(2);
    expect(stderr).toContain('--environment production lies outside --only-environment staging; give one of them');
  });
});
