// How Aion starts Kilo (`@kilocode/cli` 7.7.7, `kilo acp`; npm's `kilo` is
// a Node wrapper that spawns the native binary its platform package carries,
// forwarding signals) against the mock Chat Completions API of
// mock-chat-completions.ts, as measured (DESIGN.md §6). Kilo is built on
// OpenCode and is driven the same way:
// - The mock as an OpenAI-compatible provider of its own, given in
//   KILO_CONFIG_CONTENT (the key read from the environment), the only
//   provider enabled; its own gateway (api.kilo.ai) never asked.
// - No models list fetched, no auto-update, no default plugins, no language
//   servers downloaded, nothing shared or sent to its session ingest, no
//   telemetry.
// - The rest is Aion's: the kilo.json it writes into every agent's home and
//   KILO_PERMISSION (src/acp/launch.ts), OpenCode's rules — every tool asks;
//   its shell, fetch, web search, sub-agents and skills off the model's list.
// - Its modes are a config option (`code`, `ask`, `debug`, `orchestrator`,
//   `plan`); it starts in `code`, which acts by those rules, and Aion keeps it
//   (`ask` is a read-only mode offering no MCP tool).
// Its calls of Aion's tools carry OpenCode's marker: a pending first update
// titled `aion_read_document`, kind `other`, which the request repeats; its
// own tools are named as OpenCode's (OPENCODE_TOOLS). It asks nothing to sign
// in (it offers only `kilo-login`, never called).
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';
import { mockProviderConfig } from './opencode.js';

/** The switches that keep Kilo from reaching anything but its model (the README's configuration has them too). */
export const KILO_QUIET = {
  KILO_DISABLE_MODELS_FETCH: '1',
  KILO_DISABLE_AUTOUPDATE: '1',
  KILO_DISABLE_DEFAULT_PLUGINS: '1',
  KILO_DISABLE_LSP_DOWNLOAD: '1',
  KILO_DISABLE_SHARE: '1',
  KILO_DISABLE_SESSION_INGEST: '1',
  // Anything but `all` turns its PostHog telemetry off.
  KILO_TELEMETRY_LEVEL: 'off',
};

/** The `kilo` binary, from the cache `installed('kilo')` fills. */
export const KILO = path.join(AGENT_CACHE, REAL_AGENTS.kilo.spec.replace(/[/@]/g, '_'), 'node_modules', '.bin', REAL_AGENTS.kilo.bin);

export function kiloAgent(mockUrl: string): RealAgentConfig {
  return { command: KILO, args: ['acp'], env: { ...KILO_QUIET, KILO_CONFIG_CONTENT: JSON.stringify(mockProviderConfig(mockUrl)), MOCK_API_KEY: 'test' } };
}
