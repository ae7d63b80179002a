// How Aion starts Gemini CLI (`gemini --acp`, @google/gemini-cli 0.61.0)
// against the mock Gemini API, and the settings it writes into the agent's
// scratch HOME (`$HOME/.gemini/settings.json`). Every name below is the
// installed package's own (its settings schema and policy engine), checked
// against the running agent:
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
// - a fixed model, so no router call picks one.
// GEMINI_CLI_NO_RELAUNCH keeps it one process: otherwise the command is a
// launcher that ignores SIGTERM and runs the agent as its child.
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS } from './install.js';

/** Gemini CLI's built-in tools (0.61.0), all turned off: Aion gives an agent nothing but the thread's MCP tools. */
export const GEMINI_OWN_TOOLS = [
  'run_shell_command',
  'list_background_processes',
  'read_background_output',
  'write_file',
  'replace',
  'web_fetch',
  'google_web_search',
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'grep_search',
  'activate_skill',
  'invoke_agent',
  'update_topic',
  'write_todos',
  'enter_plan_mode',
  'exit_plan_mode',
  'ask_user',
  'read_mcp_resource',
  'list_mcp_resources',
  'get_internal_docs',
  'complete_task',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
];

/** The model the settings fix (any name: the mock answers every model). */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** The binary `installed('gemini')` installs and returns (await that first). */
export const GEMINI_BINARY = path.join(AGENT_CACHE, REAL_AGENTS.gemini.spec.replace(/[/@]/g, '_'), 'node_modules', '.bin', REAL_AGENTS.gemini.bin);

export function geminiAgent(mockUrl: string): {
  command: string;
  args: string[];
  env: Record<string, string>;
  pass_env?: string[];
  settings?: unknown;
} {
  return {
    command: GEMINI_BINARY,
    args: ['--acp'],
    env: {
      // The Gemini API key auth, at the mock's base URL (loopback: http is allowed there).
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: mockUrl,
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
    settings: {
      security: {
        folderTrust: { enabled: false },
        auth: { selectedType: 'gemini-api-key' },
        disableYoloMode: true,
        disableAlwaysAllow: true,
        enablePermanentToolApproval: false,
        autoAddToPolicyByDefault: false,
      },
      tools: {
        exclude: GEMINI_OWN_TOOLS,
        confirmationRequired: ['mcp_*'],
        // No search for a ripgrep binary for a grep tool that is off anyway.
        useRipgrep: false,
      },
      general: {
        defaultApprovalMode: 'default',
        enableAutoUpdate: false,
        enableAutoUpdateNotification: false,
        checkpointing: { enabled: false },
        plan: { enabled: false },
      },
      model: { name: GEMINI_MODEL },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false },
      skills: { enabled: false },
      useWriteTodos: false,
      hooksConfig: { enabled: false },
      experimental: { enableAgents: false },
    },
  };
}
