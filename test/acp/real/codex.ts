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
// - Everything else as `-c key=value` overrides of config.toml (names from
//   codex's ConfigToml): no web search, no analytics, feedback or metrics
//   export, no update check, no history file; approvals `untrusted` (every
//   command but Codex's list of known-safe reads, every patch and every MCP
//   tool not marked read-only asks the client) and no sandbox of its own
//   (`danger-full-access`): Codex's sandbox is bubblewrap, which cannot start
//   inside Aion's (no nested user namespaces), so Aion's sandbox is the one
//   that contains it. With these two set Codex offers no modes.
// Its home (`$HOME/.codex`, or CODEX_HOME) receives auth.json, sessions and
// SQLite state; when that folder is under the temp dir Codex warns once on
// stderr that it will not create its helper links (only its own sandbox and
// the `apply_patch` shell alias need them).
import os from 'node:os';
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS } from './install.js';

/** `@zed-industries/codex-acp-<platform>-<arch>`, the optional dependency that holds the binary. */
function nativePackage(): string {
  return `@zed-industries/codex-acp-${process.platform}-${os.arch()}`;
}

/** The native codex-acp binary inside the cache install.ts fills (`await installed('codex')` first). */
export function codexBinary(): string {
  const folder = path.join(AGENT_CACHE, REAL_AGENTS.codex.spec.replace(/[/@]/g, '_'));
  return path.join(folder, 'node_modules', nativePackage(), 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');
}

/** The `-c` overrides that point Codex at BASE_URL and turn off what can be turned off. */
export function codexOverrides(baseUrl: string): Record<string, string> {
  return {
    openai_base_url: JSON.stringify(baseUrl),
    approval_policy: '"untrusted"',
    sandbox_mode: '"danger-full-access"',
    web_search: '"disabled"',
    'analytics.enabled': 'false',
    'feedback.enabled': 'false',
    'otel.metrics_exporter': '"none"',
    check_for_update_on_startup: 'false',
    'history.persistence': '"none"',
  };
}

export function codexAgent(mockUrl: string): { command: string; args: string[]; env: Record<string, string>; configToml?: string } {
  const overrides = codexOverrides(`${mockUrl}/v1`);
  return {
    command: codexBinary(),
    args: Object.entries(overrides).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    // Aion calls `authenticate` with `openai-api-key` (an env_var method naming OPENAI_API_KEY), which stores it in $CODEX_HOME/auth.json.
    env: { OPENAI_API_KEY: 'test' },
    // The same settings as a $CODEX_HOME/config.toml, for a harness that writes the file instead of passing `-c` (the two are equivalent).
    configToml: Object.entries(overrides)
      .map(([key, value]) => `${key} = ${value}\n`)
      .join(''),
  };
}
