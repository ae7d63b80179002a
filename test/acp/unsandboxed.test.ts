// An agent without a sandbox runs as the server's user, so it never runs as
// root unless the admin says so (AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT=1):
// a root server lists one configured with "sandbox": false, and the demo
// agent where no sandbox can start, as unavailable, saying which setting to
// set. Allowed, the demo agent without its sandbox refuses the commands that
// act on its host. "No sandbox can start" is a PATH without bubblewrap.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshDemoDataDir } from '../helpers/store.js';

interface Listing {
  name: string;
  available: boolean;
  sentence: string;
  sandboxed: boolean;
}
interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

const ROOT = process.geteuid?.() === 0;
const SETTING = /set AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT=1 to allow it/;
const running: { stop(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const server of running) await server.stop();
});

/** `ops serve --demo` where no sandbox can start. */
async function withoutSandboxes(env: Record<string, string> = {}): Promise<{ server: ServerProcess; tokens: Record<string, string> }> {
  const dataDir = await freshDemoDataDir();
  const server = await spawnServer(['--demo', '--data', dataDir], { PATH: await scratchFolder('empty-path'), ...env });
  running.push(server);
  const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
  return { server, tokens };
}

describe.runIf(ROOT)('a server run as root', () => {
  it('refuses an agent configured with "sandbox": false, saying which setting allows it', async () => {
    const server: TestServer = await startTestServer('pglite', {
      demo: true,
      env: { AION_AGENTS: JSON.stringify({ loose: { command: process.execPath, args: [path.resolve('dist/main.js'), 'demo-agent'], sandbox: false } }) },
    });
    running.push(server);
    const ada = client(server.url, server.demoTokens.ada ?? '');
    const listed = ((await ada.get('/api/v1/assistant/agents')).body as Listing[]).find((agent) => agent.name === 'loose');
    expect(listed).toMatchObject({ available: false, sandboxed: false });
    expect(listed?.sentence).toMatch(/^it is configured with "sandbox": false, and without one it would run as root, the server's user: /);
    expect(listed?.sentence).toMatch(SETTING);
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'loose' });
    expect(opened.status).toBe(503);
    expect((opened.body as { error: string }).error).toMatch(SETTING);
  });

  it('refuses the demo agent where no sandbox can start, saying which setting allows it', async () => {
    const { server, tokens } = await withoutSandboxes();
    const listed = ((await client(server.url, tokens.ada ?? '').get('/api/v1/assistant/agents')).body as Listing[]).find((agent) => agent.name === 'demo-agent');
    expect(listed).toMatchObject({ available: false, sandboxed: false });
    expect(listed?.sentence).toMatch(/^its sandbox cannot start here \(.*bubblewrap.*\), and without one it would run as root/);
    expect(listed?.sentence).toMatch(SETTING);
  });
});

describe('the demo agent without a sandbox', () => {
  it('refuses the commands that act on its host', async () => {
    const { server, tokens } = await withoutSandboxes({ AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' });
    const ada = client(server.url, tokens.ada ?? '');
    const listed = ((await ada.get('/api/v1/assistant/agents')).body as Listing[]).find((agent) => agent.name === 'demo-agent');
    expect(listed).toMatchObject({ available: true, sandboxed: false });
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const planted = path.join(await scratchFolder('unsandboxed'), 'planted');
    const answer = await ada.post(`/api/v1/assistant/threads/${(opened.body as Thread).id}/messages`, {
      text: [
        '/cat /etc/passwd',
        `/touch ${planted}`,
        `/connect ${server.url}/healthz`,
        `/link /etc/passwd ${planted}`,
        '/fork 2',
        '/alloc 16',
        `/fill ${planted} 1`,
        '/spin 1 1',
        '/say still here',
      ].join('\n'),
    });
    expect(answer.status, answer.text).toBe(200);
    const said = ((answer.body as Thread).messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '').split('\n');
    const refused = (command: string) => `${command}: refused: the demo agent runs without a sandbox here, so it acts on nothing of its host`;
    expect(said).toEqual([...['cat', 'touch', 'connect', 'link', 'fork', 'alloc', 'fill', 'spin'].map(refused), 'still here']);
    expect(existsSync(planted)).toBe(false);
  });
});
