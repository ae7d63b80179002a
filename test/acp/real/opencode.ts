// How Aion starts OpenCode (`opencode-ai` 1.18.33, a native binary its npm
// package carries; `opencode acp`) against the mock Chat Completions API of
// mock-chat-completions.ts, as measured (DESIGN.md §6):
// - The mock as an OpenAI-compatible provider of its own (OpenCode bundles
//   `@ai-sdk/openai-compatible`, so nothing is installed at start), given in
//   OPENCODE_CONFIG_CONTENT with its key read from the environment
//   (`{env:MOCK_API_KEY}`), the only provider enabled.
// - No models list fetched, no auto-update, no default plugins (each an npm
//   install), no language servers downloaded, nothing shared.
// - The rest is the opencode.json Aion writes into every agent's home
//   (src/acp/agent-home.ts): every tool asks, its shell, fetch, web search,
//   sub-agents and skills off.
// It asks nothing to sign in: `authenticate` is never called with an API key.
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';
import { MOCK_CHAT_MODEL, type OwnTools } from './mock-chat-completions.js';

/** OpenCode's own tools as its model calls them (1.18: `bash`, `write`, `webfetch`). */
export const OPENCODE_TOOLS: OwnTools = {
  shell: (command) => ({ name: 'bash', args: { command, description: 'Runs the command' } }),
  write: (filePath, content) => ({ name: 'write', args: { filePath, content } }),
  fetch: (url) => ({ name: 'webfetch', args: { url, format: 'text' } }),
};

/** The switches that keep OpenCode from reaching anything but its model (the README's configuration has them too). */
export const OPENCODE_QUIET = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
};

/** The `opencode` binary (its package's `bin`), from the cache `installed('opencode')` fills. */
export const OPENCODE = path.join(AGENT_CACHE, REAL_AGENTS.opencode.spec.replace(/[/@]/g, '_'), 'node_modules', '.bin', 'opencode');

/** The configuration that makes the mock OpenCode's (and Kilo's) only provider and model. */
export function mockProviderConfig(mockUrl: string): Record<string, unknown> {
  return {
    model: `mock/${MOCK_CHAT_MODEL}`,
    small_model: `mock/${MOCK_CHAT_MODEL}`,
    enabled_providers: ['mock'],
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${mockUrl}/v1`, apiKey: '{env:MOCK_API_KEY}' },
        models: { [MOCK_CHAT_MODEL]: { name: 'Mock', tool_call: true } },
      },
    },
  };
}

export function opencodeAgent(mockUrl: string): RealAgentConfig {
  return { command: OPENCODE, args: ['acp'], env: { ...OPENCODE_QUIET, OPENCODE_CONFIG_CONTENT: JSON.stringify(mockProviderConfig(mockUrl)), MOCK_API_KEY: 'test' } };
}
