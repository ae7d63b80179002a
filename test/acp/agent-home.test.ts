// The server never follows a link an agent planted in its scratch folder
// (DESIGN §14, invariant 18): the demo agent, in its sandbox, replaces the
// settings files the server wrote into its HOME by links — to a file of the
// server's user, to a folder of it, to the data folder's instance key — and
// plants a link in its working folder; it exits, and the operator's next
// message starts it again. Nothing the links point to changes, and the
// server starts again with its key. `ops serve` runs as its own process, as
// an operator runs it. And a root server gives a link in the folder to the
// agent's uid with lchown, never what it points to.
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sandboxed, stopSandboxes } from '../../src/acp/sandbox.js';
import { DEFAULT_AGENT_LIMITS } from '../../src/acp/agent-limits.js';
import { DEFAULT_AGENT_UID_BASE } from '../../src/acp/agent-uids.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { freshDemoDataDir } from '../helpers/store.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

let dataDir: string;
let server: ServerProcess | null = null;
let victims: string;

beforeAll(async () => {
  dataDir = await freshDemoDataDir();
  victims = await scratchFolder('link-victims');
  await writeFile(path.join(victims, 'file'), 'the server user’s file\n');
  await writeFile(path.join(victims, 'owned'), 'owned by the server user\n');
  await mkdir(path.join(victims, 'folder'));
  await mkdir(path.join(victims, 'kept'));
  await writeFile(path.join(victims, 'kept', 'inside'), 'kept\n');
  server = await spawnServer(['--demo', '--data', dataDir]);
});
afterAll(async () => {
  await server?.stop();
});

const lastAnswer = (thread: Thread) => thread.messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '';

describe('links an agent plants in its scratch folder', () => {
  it('are never followed: not on its next start, not when its folder goes; the server starts again with its key', async () => {
    const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
    const ada = client(server?.url ?? '', tokens.ada ?? '');
    const key = await readFile(path.join(dataDir, 'secret.key'));
    const owner = async (file: string) => (await lstat(file)).uid;
    const ownerBefore = await owner(path.join(victims, 'owned'));

    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    expect(opened.status, opened.text).toBe(200);
    const id = (opened.body as Thread).id;
    const planted = await ada.post(`/api/v1/assistant/threads/${id}/messages`, {
      text: [
        `/link ${path.join(victims, 'file')} ~/.claude/settings.json`,
        `/link ${path.join(victims, 'folder')} ~/.gemini`,
        `/link ${path.join(dataDir, 'secret.key')} ~/.codex/config.toml`,
        `/link ${path.join(victims, 'owned')} owned`,
        '/crash',
      ].join('\n'),
    });
    // It exits mid-turn: 503, the message kept.
    expect(planted.status, planted.text).toBe(503);

    const again = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say back' });
    expect(again.status, again.text).toBe(200);
    expect(lastAnswer(again.body as Thread)).toBe('back');
    expect(await readFile(path.join(victims, 'file'), 'utf8')).toBe('the server user’s file\n');
    expect(await readdir(path.join(victims, 'folder'))).toEqual([]);
    expect(await readFile(path.join(dataDir, 'secret.key'))).toEqual(key);
    expect(await owner(path.join(victims, 'owned'))).toBe(ownerBefore);

    // Its folder goes with the thread, the links in it and nothing they point to.
    const linked = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/link ${path.join(victims, 'kept')} ~/kept\n/say linked` });
    expect(lastAnswer(linked.body as Thread)).toMatch(/^link: made\nlinked$/);
    expect((await ada.delete(`/api/v1/assistant/threads/${id}`)).status).toBe(204);
    expect(await readFile(path.join(victims, 'kept', 'inside'), 'utf8')).toBe('kept\n');

    expect(await server?.stop()).toBe(0);
    server = await spawnServer(['--demo', '--data', dataDir]);
    expect((await client(server.url, tokens.ada ?? '').get('/api/v1/projects')).status).toBe(200);
    expect(await readFile(path.join(dataDir, 'secret.key'))).toEqual(key);
  });
});

describe.runIf(process.geteuid?.() === 0)('a root server giving an agent its folder', () => {
  it('gives a link in it over itself, never the file it points to', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'aion-lchown-'));
    try {
      await chmod(parent, 0o711);
      const scratch = path.join(parent, 'one');
      await mkdir(scratch, { mode: 0o700 });
      const target = path.join(parent, 'root-owned');
      await writeFile(target, 'root’s\n');
      await symlink(target, path.join(scratch, 'planted'));
      const command = await sandboxed('true', [], { PATH: '/usr/bin:/bin', HOME: scratch }, { scratch, denyRead: [], allowHosts: [], aionUrl: 'http://127.0.0.1:65535', uidBase: DEFAULT_AGENT_UID_BASE, limits: DEFAULT_AGENT_LIMITS });
      await command.dispose();
      expect((await lstat(target)).uid).toBe(0);
      expect((await lstat(path.join(scratch, 'planted'))).uid).toBe(command.uid);
    } finally {
      await stopSandboxes();
      await rm(parent, { recursive: true, force: true });
    }
  });
});
