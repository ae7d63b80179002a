// How Aion starts GitHub Copilot CLI (`copilot --acp`, @github/copilot
// 1.0.102) against mock-copilot.ts, as measured (DESIGN.md §6):
// - The native binary, not npm's `.bin/copilot`: that is a Node wrapper that
//   runs the platform binary with spawnSync, and a SIGTERM to it leaves the
//   binary running. The binary is a Node single-executable with its own
//   Node 24, so the machine's Node 20 does not matter. At its first start it
//   unpacks its JavaScript and native modules (235 MB) into
//   `$HOME/.cache/copilot/pkg` — into every scratch HOME — unless
//   COPILOT_PKG_CACHE_HOME names a folder where they already are; that folder
//   may be read-only (measured under a read-only bind mount), so it is
//   unpacked once here, outside any sandbox, beside the installed package.
// - Signed in with a GitHub token in COPILOT_GITHUB_TOKEN (GH_TOKEN and
//   GITHUB_TOKEN work too; `ghp_` classic tokens are refused without a
//   request). Without one `session/new` and `authenticate` answer -32000
//   "Authentication required"; with one `authenticate` answers `{}` for any
//   methodId, so nothing needs it. COPILOT_DEBUG_GITHUB_API_URL moves the
//   GitHub API (`/copilot_internal/user`, `/copilot_internal/managed_settings`)
//   to the mock, whose user names the mock as its Copilot API
//   (COPILOT_API_URL says the same). No other host is contacted: auto-update
//   and telemetry are off, the built-in GitHub MCP servers disabled.
// - A fixed model the mock lists (COPILOT_MODEL): otherwise Copilot asks the
//   "auto" router (`/auto`, `/models/session`) and fails without it.
// - Its own tools off: `--available-tools=aion` leaves the model nothing but
//   the tools of the MCP server named `aion` (a call of `bash`, `create`,
//   `web_fetch`… answers "Tool 'bash' does not exist", no permission asked),
//   and `--deny-tool` rules refuse the shell, file writes and URLs even if the
//   session is switched to allow-all (a prompt `/allow-all on` does that).
//   `ownTools: true` leaves them on, for a test of the permission requests
//   they make.
// Copilot asks before every MCP tool not annotated read-only, every shell
// command, write, fetch and read outside its working folder, in its default
// mode (`…/session-modes#agent` with config option `allow_all` `off`).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';
import { MOCK_COPILOT_MODEL } from './mock-copilot.js';

const FOLDER = path.join(AGENT_CACHE, REAL_AGENTS.copilot.spec.replace(/[/@]/g, '_'));
const VERSION = REAL_AGENTS.copilot.spec.slice(REAL_AGENTS.copilot.spec.lastIndexOf('@') + 1);
const PLATFORM = `${process.platform}-${process.arch}`;

/** Where the binary's unpacked package lives (COPILOT_PKG_CACHE_HOME), shared by every agent. */
export const COPILOT_PKG_CACHE = path.join(FOLDER, 'pkg-cache');

/** The native binary inside the cache install.ts fills (`await installed('copilot')` first); glibc Linux names it `@github/copilot-linux-x64`. */
export function copilotBinary(): string {
  return path.join(FOLDER, 'node_modules', '@github', `copilot-${PLATFORM}`, process.platform === 'win32' ? 'copilot.exe' : 'copilot');
}

/** Unpacks the binary's package into COPILOT_PKG_CACHE once (about a second); later calls find it there. */
export function unpackCopilot(): void {
  if (existsSync(path.join(COPILOT_PKG_CACHE, 'pkg', PLATFORM, VERSION, '.extraction-complete'))) return;
  execFileSync(copilotBinary(), ['--version'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? FOLDER, COPILOT_PKG_CACHE_HOME: COPILOT_PKG_CACHE, COPILOT_AUTO_UPDATE: 'false' },
    stdio: 'ignore',
    timeout: 120_000,
  });
}

/** The MCP server name Aion passes in session/new (src/acp/permissions.ts AION_MCP_NAME). */
const AION_SERVER = 'aion';

export function copilotAgent(
  mockUrl: string,
  options: { ownTools?: boolean } = {},
): RealAgentConfig {
  unpackCopilot();
  const lockedDown = options.ownTools
    ? []
    : [`--available-tools=${AION_SERVER}`, '--deny-tool=shell', '--deny-tool=write', '--deny-tool=url'];
  return {
    command: copilotBinary(),
    args: ['--acp', '--no-auto-update', '--disable-builtin-mcps', '--disable-client-telemetry', '--no-custom-instructions', ...lockedDown],
    env: {
      // A token of the shape Copilot accepts (an OAuth `gho_` one); the mock takes any.
      COPILOT_GITHUB_TOKEN: 'gho_aiontest0000000000000000000000000000',
      COPILOT_DEBUG_GITHUB_API_URL: mockUrl,
      COPILOT_API_URL: mockUrl,
      COPILOT_MODEL: MOCK_COPILOT_MODEL,
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PKG_CACHE_HOME: COPILOT_PKG_CACHE,
    },
  };
}
