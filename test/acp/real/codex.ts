// How Aion starts Codex (`@zed-industries/codex-acp` 0.16.0, which bundles
// codex core 0.137) against the mock Responses API of mock-openai.ts, as
// measured (DESIGN.md §6):
// - The native binary, not npm's `.bin/codex-acp`: that is a Node wrapper
//   that runs the binary with spawnSync, and a SIGTERM to it leaves the
//   binary running as an orphan (the binary does not exit on stdin EOF either).
// - The built-in `openai` provider with `openai_base_url` (the environment
//   variable OPENAI_BASE_URL is not read by this version), OPENAI_API_KEY,
//   and `authenticate` with methodId `openai-api-key`: until then
//   `session/new` answers -32000 "Authentication required". The provider
//   tries the Responses WebSocket first; the mock refuses it and Codex falls
//   back to HTTP streaming for the session.
// - Everything else is the config.toml Aion writes into every agent's home
//   (src/acp/agent-home.ts): approvals `untrusted` (every command but Codex's
//   known-safe reads, every patch and every MCP tool not marked read-only
//   asks the client), no sandbox of its own (Codex's is bubblewrap, which
//   cannot start inside Aion's), no shell tool, no web search, nothing
//   reported home. With those Codex offers no modes.
// Its home (`$HOME/.codex`, or CODEX_HOME) receives auth.json, sessions and
// SQLite state; when that folder is under the temp dir Codex warns once on
// stderr that it will not create its helper links (only its own sandbox and
// the `apply_patch` shell alias need them).
import os from 'node:os';
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';

/** `@zed-industries/codex-acp-<platform>-<arch>`, the optional dependency that holds the binary. */
function nativePackage(): string {
  return `@zed-industries/codex-acp-${process.platform}-${os.arch()}`;
}

/** The native codex-acp binary inside the cache install.ts fills (`await installed('codex')` first). */
export function codexBinary(): string {
  const folder = path.join(AGENT_CACHE, REAL_AGENTS.codex.spec.replace(/[/@]/g, '_'));
  return path.join(folder, 'node_modules', nativePackage(), 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');
}

export function codexAgent(mockUrl: string): RealAgentConfig {
  return {
    command: codexBinary(),
    // The rest of its configuration is Aion's own, in the scratch home (src/acp/agent-home.ts).
    args: ['-c', `openai_base_url=${JSON.stringify(`${mockUrl}/v1`)}`],
    // Aion calls `authenticate` with `openai-api-key` (an env_var method naming OPENAI_API_KEY), which stores it in $CODEX_HOME/auth.json.
    env: { OPENAI_API_KEY: 'test' },
  };
}
