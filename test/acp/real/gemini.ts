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
import { NODE22 } from './claude.js';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';

/** Gemini CLI's bundled script, in the cache `installed('gemini')` fills. */
export const GEMINI_SCRIPT = path.join(AGENT_CACHE, REAL_AGENTS.gemini.spec.replace(/[/@]/g, '_'), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

export function geminiAgent(mockUrl: string): RealAgentConfig {
  return {
    // On Node 22 whatever the server runs on: on Node 26, with NO_PROXY set (as in every sandbox), Gemini
    // hands its bundled undici's EnvHttpProxyAgent to Node's fetch, whose undici 8 drops the response
    // headers, so the MCP initialize fails silently and the model sees none of Aion's tools.
    command: NODE22,
    args: [GEMINI_SCRIPT, '--acp'],
    env: {
      // The Gemini API key auth, at the mock's base URL (loopback: http is allowed there).
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: mockUrl,
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  };
}
