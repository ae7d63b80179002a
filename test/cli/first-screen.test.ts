// The first minute of `npm start`: on a terminal, human lines and a calm
// screen whose last lines are the sign-in links and `listening on`; on a pipe
// (a service manager, a log collector), JSON as before. The terminal is a real
// pseudo-terminal (util-linux `script`), the server the built `ops`.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { spawnServer } from '../helpers/process.js';
import { freshDataDir } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function emptyStore(): Promise<string> {
  const dataDir = await freshDataDir();
  folders.push(dataDir);
  return dataDir;
}

// eslint-disable-next-line no-control-regex -- the escape that starts a terminal colour
const ANSI = /\x1b\[[0-9;]*m/g;
const TOOL_RUN_SEEN = (line: string) => line.includes('tool run');

/** `ops serve --demo` on a pseudo-terminal: everything it printed, stdout and stderr as the terminal shows them. */
function onTerminal(dataDir: string, env: Record<string, string>) {
  const command = [process.execPath, OPS_BIN, 'serve', '--demo', '--host', '127.0.0.1', '--port', '0', '--data', dataDir].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/', AION_ADMIN_TOKEN: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    lines: () => screen.replace(ANSI, '').split(/\r?\n/).filter(Boolean),
    raw: () => screen,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the first screen of ops serve --demo', () => {
  it('on a terminal: human lines, the seeding in one line, the sign-in links and listening last, requests at debug', async () => {
    const terminal = onTerminal(await emptyStore(), { TERM: 'xterm-256color', AION_LOG_LEVEL: 'info' });
    try {
      await waitFor(() => terminal.lines().some((line) => line.startsWith('listening on ')), 20_000);
      const first = terminal.lines();
      const listening = first.findIndex((line) => line.startsWith('listening on '));
      expect(listening).toBe(first.length - 1);
      expect(first.slice(listening - 4, listening).every((line) => line.startsWith('sign in as '))).toBe(true);
      expect(first.filter((line) => line.startsWith('seeded the demo: project shop, 4 operators'))).toHaveLength(1);
      expect(first.some(TOOL_RUN_SEEN), 'the seeding logs no line per step').toBe(false);
      expect(first.some((line) => line.startsWith('{')), 'no JSON on a terminal').toBe(false);
      expect(first.some((line) => line.includes('Server listening at')), 'one listening line, ours').toBe(false);

      const url = /^listening on (\S+)$/.exec(first[listening] ?? '')?.[1] ?? '';
      const ada = /^sign in as ada \(admin\): \S+#token=(\S+)$/.exec(first.find((line) => line.startsWith('sign in as ada')) ?? '')?.[1] ?? '';
      // A request alone prints nothing at info; what someone does (a tool run) is one human line.
      expect((await client(url, ada).get('/api/v1/projects')).status).toBe(200);
      expect((await client(url, ada).post('/api/v1/assistant/tools/list_projects', {})).status).toBe(200);
      await waitFor(() => terminal.lines().some(TOOL_RUN_SEEN));
      const after = terminal.lines().slice(first.length);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: tool run .*"tool":"list_projects"/);
      expect(terminal.raw(), 'colours where the terminal has them').toMatch(ANSI);
    } finally {
      await terminal.stop();
    }
  });

  it('on a pipe: JSON lines, requests at info, still one seeding line', async () => {
    const server = await spawnServer(['--demo', '--data', await emptyStore()], { AION_ADMIN_TOKEN: '', AION_LOG_LEVEL: 'info' });
    try {
      const ada = /#token=(\S+)$/.exec(server.stdout.find((line) => line.startsWith('sign in as ada')) ?? '')?.[1] ?? '';
      expect(server.stdout.at(-1)).toBe(`listening on ${server.url}`);
      expect(server.stdout.filter((line) => line.startsWith('seeded the demo: project shop, 4 operators'))).toHaveLength(1);
      expect((await client(server.url, ada).get('/api/v1/projects')).status).toBe(200);
      await waitFor(() => server.stderr.some((line) => line.includes('request completed')));
      const logged = server.stderr.filter((line) => !line.startsWith('(node:') && !line.startsWith('(Use `node'));
      for (const line of logged) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(logged.some(TOOL_RUN_SEEN), 'the seeding logs no line per step').toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('AION_LOG_FORMAT chooses either anywhere, and a wrong value says what is allowed', async () => {
    const terminal = onTerminal(await emptyStore(), { AION_LOG_FORMAT: 'json', AION_LOG_LEVEL: 'info' });
    try {
      await waitFor(() => terminal.lines().some((line) => line.startsWith('listening on ')), 20_000);
      expect(terminal.lines().filter((line) => line.startsWith('{')).length).toBeGreaterThan(0);
    } finally {
      await terminal.stop();
    }
    await expect(spawnServer(['--data', await emptyStore()], { AION_LOG_FORMAT: 'yaml' })).rejects.toThrow(/AION_LOG_FORMAT must be json or pretty, not "yaml"/);
  });
});
