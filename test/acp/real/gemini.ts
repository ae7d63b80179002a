// How Aion starts Gemini CLI (`gemini --acp`, @google/gemini-cli 0.61.0)
// against the mock Gemini API. Its settings are those Aion writes into every
// agent's scratch HOME (`$HOME/.gemini/settings.json`, src/acp/agent-home.ts),
// each name the installed package's own (its settings schema and policy
// engine), checked against the running agent:
// - the folder is trusted (`security.folderTrust.enabled: false`): in an
//   untrusted folder Gemini connects to no MCP server, Aion's included;
// - its own tools are excluded from its registry and denied by policy
//   (`tools.exclude`): the shell, with the "known safe" commands it runs
//   unasked (ls, cat, whoami…), file writes and edits, web fetch and search,
//   and the read-only ones it runs unasked (read_file, glob, grep…), so the
//   model sees Aion's tools and nothing else;
// - every MCP tool asks, whatever the mode (`tools.confirmationRequired:
//   ["mcp_*"]`, above the YOLO rule; `mcp_aion_*` would never match, Gemini
//   checks MCP calls under the server name `mcp_aion`), and no "always allow"
//   option is offered (`security.disableAlwaysAllow`);
// - nothing reaches the network but the model and Aion: no usage statistics
//   (Clearcut, play.googleapis.com), telemetry, update checks or IDE link;
// GEMINI_CLI_NO_RELAUNCH keeps it one process: otherwise the command is a
// launcher that ignores SIGTERM and runs the agent as its child.
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';

/** The binary `installed('gemini')` installs and returns (await that first). */
export const GEMINI_BINARY = path.join(AGENT_CACHE, REAL_AGENTS.gemini.spec.replace(/[/@]/g, '_'), 'node_modules', '.bin', REAL_AGENTS.gemini.bin);

export function geminiAgent(mockUrl: string): RealAgentConfig {
  return {
    command: GEMINI_BINARY,
    args: ['--acp'],
    env: {
      // The Gemini API key auth, at the mock's base URL (loopback: http is allowed there).
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: mockUrl,
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  };
}
