// What the suite needs beyond npm, made sure of once per run, with progress:
// Debian's headless Chromium (the console's browser tests), bubblewrap with
// socat and ripgrep (the agents' sandbox), and, for a run that includes them
// (AION_REAL_AGENTS), the pinned real ACP agents in their cache outside the
// repository: `npm test` runs none, and installing them cost a fresh
// machine's first `npm test` a minute and a half. As root (CI, these
// machines) a missing package is installed; otherwise the run stops with the
// command to type.
// A root server runs its sandboxed agents as `nobody`, and the demo agent is
// this repository's dist/main.js: each folder above it must let others pass.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { installed, REAL_AGENTS, type RealAgentName } from '../acp/real/install.js';
import { REPO_ROOT } from './paths.js';

const run = promisify(execFile);

/** Each Debian package by the file that shows it is installed. */
const PACKAGES: Record<string, string> = {
  'chromium-headless-shell': '/usr/lib/chromium/chromium-headless-shell',
  bubblewrap: '/usr/bin/bwrap',
  socat: '/usr/bin/socat',
  ripgrep: '/usr/bin/rg',
};

export async function ensurePrerequisites(): Promise<void> {
  if (process.getuid?.() === 0) await letOthersPass(REPO_ROOT);
  const missing = Object.entries(PACKAGES)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name);
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) throw new Error(`the tests need Debian packages: sudo apt-get install -y ${missing.join(' ')}`);
    console.error(`installing ${missing.join(', ')} (apt-get) …`);
    await run('apt-get', ['install', '-y', ...missing]).catch(async () => {
      await run('apt-get', ['update']);
      await run('apt-get', ['install', '-y', ...missing]);
    });
  }
  if (!process.env.AION_REAL_AGENTS) return;
  for (const name of Object.keys(REAL_AGENTS) as RealAgentName[]) {
    const started = Date.now();
    const binary = await installed(name, () => console.error(`installing ${REAL_AGENTS[name].spec} into the agents' cache …`));
    if (Date.now() - started > 1000) console.error(`  ${binary} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

/** Adds the search bit (only that: nothing becomes listable) to each folder above FOLDER that others cannot pass. */
async function letOthersPass(folder: string): Promise<void> {
  for (let at = folder; at !== path.dirname(at); at = path.dirname(at)) {
    const { mode } = await stat(at);
    if ((mode & 0o001) === 0) {
      console.error(`letting other users pass through ${at} (o+x), so sandboxed agents (run as nobody) reach ${folder}`);
      await chmod(at, mode | 0o001);
    }
  }
}
