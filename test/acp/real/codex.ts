// How Aion starts Codex (`@agentclientprotocol/codex-acp` 2.6.0, a Node
// adapter that runs the Codex CLI 0.166 it bundles as `codex app-server`)
// against the mock Responses API of mock-openai.ts, as measured (DESIGN.md §6):
// - The adapter's entry script on the cached Node 22, and CODEX_PATH naming
//   the native Codex binary (else it runs `@openai/codex`'s Node launcher,
//   which replaces itself with that binary all the same).
// - The built-in `openai` provider at the mock: `openai_base_url` in
//   CODEX_CONFIG (the adapter's JSON of config overrides for every session;
//   its command-line arguments are ignored), OPENAI_API_KEY, and
//   `authenticate` with methodId `openai-api-key`.
// - Everything else is the config.toml Aion writes into every agent's home
//   (src/acp/agent-home.ts): approvals `untrusted`, no sandbox of its own
//   (Codex's is bubblewrap, which cannot start inside Aion's), no shell tool,
//   no web search, nothing reported home.
import path from 'node:path';
import { NODE22 } from './claude.js';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';

const MODULES = path.join(AGENT_CACHE, REAL_AGENTS.codex.spec.replace(/[/@]/g, '_'), 'node_modules');

/** The adapter's entry script (its package's `bin`), from the cache `installed('codex')` fills. */
export const CODEX_ACP = path.join(MODULES, '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');

/** The native Codex binary of `@openai/codex-linux-x64` (glibc Linux runs its musl build). */
export const CODEX_BINARY = path.join(MODULES, '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');

export function codexAgent(mockUrl: string): RealAgentConfig {
  return {
    command: NODE22,
    args: [CODEX_ACP],
    env: {
      CODEX_PATH: CODEX_BINARY,
      CODEX_CONFIG: JSON.stringify({ openai_base_url: `${mockUrl}/v1` }),
      // Its `api-key` method names no variable Aion could check, so the adapter signs itself in with it, from OPENAI_API_KEY.
      DEFAULT_AUTH_REQUEST: JSON.stringify({ methodId: 'api-key' }),
      OPENAI_API_KEY: 'test',
    },
  };
}
