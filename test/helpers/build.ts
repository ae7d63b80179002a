// Tests that start `ops` as a process (clusters, the demo agent, `ops mcp`)
// run dist/, and the browser tests its console: before a run, whatever of it
// is older than its sources is built again, so a test never tries yesterday's
// code after an edit of src/ or web/. It is `npm test`'s only build: after
// `npm install` (whose `prepare` builds) nothing is built twice.
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths.js';

const run = promisify(execFile);

/** What each part of dist/ is built from, and how. */
const PARTS = [
  {
    what: 'the server (dist/main.js)',
    output: 'dist/main.js',
    inputs: ['src', 'scripts/bundle-server.ts', 'package.json'],
    command: [path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/bundle-server.ts']],
  },
  {
    what: 'the console (dist/web)',
    output: 'dist/web/index.html',
    // The console imports src/wire, which imports from further folders of src/: all of src/ counts.
    inputs: ['web', 'src', 'package.json'],
    command: [path.join(REPO_ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']],
  },
] as const;

/** The newest modification time under `entry` (a file or a folder), 0 when it is missing. */
async function newest(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const names = await readdir(entry);
  const times = await Promise.all(names.filter((name) => name !== 'node_modules').map((name) => newest(path.join(entry, name))));
  return Math.max(info.mtimeMs, ...times);
}

/** Builds each part of dist/ that is missing or older than a source it is built from; says which, and how long it took. */
export async function buildIfStale(log: (line: string) => void = console.error): Promise<void> {
  for (const part of PARTS) {
    const built = await newest(path.join(REPO_ROOT, part.output));
    const sources = Math.max(...(await Promise.all(part.inputs.map((input) => newest(path.join(REPO_ROOT, input))))));
    if (built >= sources) continue;
    const started = Date.now();
    log(`building ${part.what}: ${built === 0 ? 'missing' : 'older than its sources'} …`);
    const [command, args] = part.command;
    await run(command, [...args], { cwd: REPO_ROOT });
    log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
