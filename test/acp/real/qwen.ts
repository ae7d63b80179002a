// How Aion starts Qwen Code (`@qwen-code/qwen-code` 0.24.4, `qwen --acp`; a
// Gemini CLI fork, Node ≥ 22, so on the cache's Node 22) against the mock
// Chat Completions API of mock-chat-completions.ts, as measured (DESIGN.md §6):
// - Its `openai` sign-in from OPENAI_API_KEY, OPENAI_BASE_URL (the mock) and
//   OPENAI_MODEL: `session/new` needs no `authenticate`.
// - QWEN_CODE_LEGACY_MCP_BLOCKING=1: otherwise it connects MCP servers in the
//   background after `session/new` answers, and a first prompt sent at once
//   reaches the model with none of Aion's tools (measured: the first request
//   offered nothing of `aion`; 3 s later it did).
// - The bundled cli.js on Node, not the `qwen` entry (a launcher that runs
//   cli.js as its child with spawnSync, for --expose-gc), and
//   QWEN_CODE_NO_RELAUNCH: cli.js runs as the one process (it otherwise
//   starts itself again with a larger heap).
// - The rest is the .qwen/settings.json Aion writes into every agent's home
//   (src/acp/agent-home.ts): its own tools denied (a call of one fails
//   without asking), the tool-search bridge off (so MCP tools are declared to
//   the model, not deferred behind `tool_search`), its background memory
//   agent off (it runs after a turn with a shell and file writes), no
//   telemetry, usage statistics or auto-update. Aion sets its `default` mode
//   (it starts in `auto`, where a model classifier approves).
// Its calls of Aion's tools are marked `_meta.toolName: "mcp__aion__<tool>"`
// on the request, and on the first update with `provenance: "mcp"` and
// `serverId: "aion"`; its own tools say `provenance: "builtin"`.
import path from 'node:path';
import { NODE22 } from './claude.js';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';
import { MOCK_CHAT_MODEL, type OwnTools } from './mock-chat-completions.js';

/** Qwen Code's own tools as its model calls them. */
export const QWEN_TOOLS: OwnTools = {
  shell: (command) => ({ name: 'run_shell_command', args: { command, description: 'Runs the command' } }),
  write: (filePath, content) => ({ name: 'write_file', args: { file_path: filePath, content } }),
  fetch: (url) => ({ name: 'web_fetch', args: { url, prompt: 'Summarise the page' } }),
};

/** Qwen Code's bundled script, in the cache `installed('qwen')` fills. */
export const QWEN_SCRIPT = path.join(AGENT_CACHE, REAL_AGENTS.qwen.spec.replace(/[/@]/g, '_'), 'node_modules', '@qwen-code', 'qwen-code', 'cli.js');

export function qwenAgent(mockUrl: string): RealAgentConfig {
  return {
    command: NODE22,
    args: [QWEN_SCRIPT, '--acp'],
    env: { QWEN_CODE_NO_RELAUNCH: 'true', QWEN_CODE_LEGACY_MCP_BLOCKING: '1', OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `${mockUrl}/v1`, OPENAI_MODEL: MOCK_CHAT_MODEL },
  };
}
