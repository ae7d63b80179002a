// What the suite needs beyond npm, made sure of once per run, with progress:
// Debian's headless Chromium (the console's browser tests), bubblewrap with
// socat and ripgrep (the agents' sandbox), and the pinned real ACP agents in
// their cache outside the repository. As root (CI, these machines) a missing
// package is installed; otherwise the run stops with the command to type.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { installed, REAL_AGENTS, type RealAgentName } from '../acp/real/install.js';

const run = promisify(execFile);

/** Each Debian package by the file that shows it is installed. */
const PACKAGES: Record<string, string> = {
  'chromium-headless-shell': '/usr/lib/chromium/chromium-headless-shell',
  bubblewrap: '/usr/bin/bwrap',
  socat: '/usr/bin/socat',
  ripgrep: '/usr/bin/rg',
};

export async function ensurePrerequisites(): Promise<void> {
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
  for (const name of Object.keys(REAL_AGENTS) as RealAgentName[]) {
    const started = Date.now();
    const binary = await installed(name, () => console.error(`installing ${REAL_AGENTS[name].spec} into the agents' cache …`));
    if (Date.now() - started > 1000) console.error(`  ${binary} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}
