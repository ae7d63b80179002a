// Under a root server each agent process runs as a uid of its own: two
// agents have distinct uids from AION_AGENT_UID_BASE up, and a process of
// one agent's uid cannot read the other's environment; no process of the
// host shows a sandbox's proxy credentials on its command line.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_UID_BASE } from '../../src/acp/agent-uids.js';
import { sandboxProblem } from '../../src/acp/sandbox.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const NODE = realpathSync(process.execPath);
const asRoot = process.getuid?.() === 0 && (await sandboxProblem()) === null;

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

let server: TestServer;
let ada: Client;

describe.runIf(asRoot)('the agents of a root server', () => {
  beforeAll(async () => {
    server = await startTestServer('pglite', { demo: true, env: { PATH: process.env.PATH ?? '' } });
    ada = client(server.url, server.demoTokens.ada ?? '');
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function uidOfNewAgent(): Promise<number> {
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const id = (opened.body as Thread).id;
    const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/uid' });
    expect(answer.status, answer.text).toBe(200);
    return Number(/^uid: (\d+)$/.exec((answer.body as Thread).messages.at(-1)?.text ?? '')?.[1]);
  }

  it('run as distinct uids of the range, and cannot read one another’s environment', async () => {
    const [first, second] = [await uidOfNewAgent(), await uidOfNewAgent()];
    for (const uid of [first, second]) expect(uid).toBeGreaterThanOrEqual(DEFAULT_AGENT_UID_BASE);
    expect(first).not.toBe(second);
    const target = agentPidsOf(second)[0];
    expect(target).toBeDefined();
    // What a process of the first agent's uid (on the host, where the agents' pids are seen) gets.
    const attempt = await run('setpriv', [`--reuid=${first}`, `--regid=${first}`, '--clear-groups', 'cat', `/proc/${target}/environ`]).then(
      () => 'read',
      (error: { stderr?: string }) => error.stderr ?? 'failed',
    );
    expect(attempt).toMatch(/Permission denied/);
  });

  it('have their proxy credentials on no command line of the host', async () => {
    const uid = await uidOfNewAgent();
    const pid = agentPidsOf(uid)[0] ?? -1;
    const proxy = /(?:^|\0)HTTP_PROXY=([^\0]+)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1] ?? '';
    const token = decodeURIComponent(new URL(proxy).password);
    expect(token.length).toBeGreaterThan(8);
    const seen = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          const line = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
          return line.includes(token) || line.includes(encodeURIComponent(token));
        } catch {
          return false;
        }
      });
    expect(seen).toEqual([]);
  });
});

/** The node processes running as `uid` (the demo agent in its sandbox). */
function agentPidsOf(uid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const ours = /^Uid:\s+(\d+)/m.exec(status)?.[1] === String(uid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('demo-agent');
        return ours && readlinkSync(`/proc/${pid}/exe`) === NODE;
      } catch {
        return false;
      }
    });
}
