// What Aion writes into every agent's scratch HOME before it starts: the
// settings files of the agents that read their switches from a file, so that
// each starts as Aion needs whatever the admin's own machine says — it trusts
// its working folder (else it loads no MCP server, Aion's included), uses
// none of its own tools, asks before every MCP call, and reaches nothing but
// its model and Aion. A file an agent does not read costs nothing, so no
// agent is told apart by name.
//
// The scratch folder holding that HOME is the agent's to write, and survives
// its process: the server never writes, follows or reads back what is in it.
// Each start removes it (rm never follows a link) and makes it again, so
// every path the server writes is one it has just made (DESIGN §14).
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Gemini CLI (0.61): its built-in tools, all excluded from its registry and
 * denied by its policy — the shell with the "safe" commands it runs unasked,
 * file reads, writes and edits, web fetch and search, sub-agents, tasks.
 */
const GEMINI_OWN_TOOLS = [
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

const GEMINI_SETTINGS = {
  security: {
    // An untrusted folder drops every MCP server; the scratch folder is the agent's own.
    folderTrust: { enabled: false },
    auth: { selectedType: 'gemini-api-key' },
    disableYoloMode: true,
    disableAlwaysAllow: true,
    enablePermanentToolApproval: false,
    autoAddToPolicyByDefault: false,
  },
  tools: {
    exclude: GEMINI_OWN_TOOLS,
    // Above the YOLO rule; Gemini checks MCP calls under `mcp_<server>`, so `mcp_aion_*` would never match.
    confirmationRequired: ['mcp_*'],
    useRipgrep: false,
  },
  general: {
    defaultApprovalMode: 'default',
    enableAutoUpdate: false,
    enableAutoUpdateNotification: false,
    checkpointing: { enabled: false },
    plan: { enabled: false },
  },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false },
  skills: { enabled: false },
  useWriteTodos: false,
  hooksConfig: { enabled: false },
  experimental: { enableAgents: false },
};

/** Claude Code: sessions start in the mode that asks (not `auto`, where a classifier decides), and no mode skips asking. */
const CLAUDE_SETTINGS = {
  permissions: { defaultMode: 'default', disableAutoMode: 'disable', disableBypassPermissionsMode: 'disable' },
};

/**
 * Codex (codex-acp 2.6, Codex 0.166; `untrusted` approvals are gone): asks on
 * request (Aion sets its `read-only` mode, where every write and every MCP
 * tool not marked read-only asks); no shell tool, no web search; its own
 * bubblewrap sandbox off, since it cannot nest inside Aion's, which contains
 * it instead; nothing reported home.
 */
const CODEX_CONFIG = `approval_policy = "on-request"
sandbox_mode = "danger-full-access"
web_search = "disabled"
check_for_update_on_startup = false

[features]
shell_tool = false

[analytics]
enabled = false

[feedback]
enabled = false

[history]
persistence = "none"

[otel]
metrics_exporter = "none"
`;

/**
 * OpenCode (1.18; Kilo 7.7, built on it, reads the same in .config/kilo/kilo.json):
 * asks before every tool, and has no shell, no fetch or web search, no
 * sub-agents, skills or access outside its folder (those are taken off the
 * model's list). A refusal tells the model and the turn goes on, as with
 * the other agents (OpenCode otherwise ends the turn at the first "no").
 * No auto-update, no sharing, no snapshots (each a git run in its folder).
 * The rules are also given as OPENCODE_PERMISSION and KILO_PERMISSION
 * (src/acp/launch.ts), which each merges over every configuration, the
 * admin's included.
 */
export const OPENCODE_PERMISSION = {
  '*': 'ask',
  bash: 'deny',
  webfetch: 'deny',
  websearch: 'deny',
  codesearch: 'deny',
  task: 'deny',
  skill: 'deny',
  external_directory: 'deny',
};

const OPENCODE_CONFIG = {
  autoupdate: false,
  share: 'disabled',
  snapshot: false,
  permission: OPENCODE_PERMISSION,
  experimental: { continue_loop_on_deny: true },
};

/**
 * Qwen Code (0.24): its own tools denied (taken off the model's list) — the
 * shell, file reads, writes and edits, web fetch and search, sub-agents,
 * skills, schedules, tasks, teams, worktrees, memory; asks before every MCP
 * call (`default` mode; ACP's servers are never trusted); MCP tools, which it
 * defers behind its tool_search bridge, loaded at the session's start (a
 * preload budget of the whole context window); nothing reported home, no
 * auto-update.
 */
const QWEN_OWN_TOOLS = [
  'run_shell_command',
  'exec',
  'monitor',
  'write_file',
  'edit',
  'notebook_edit',
  'read_file',
  'zoom_image',
  'list_directory',
  'glob',
  'grep_search',
  'lsp',
  'web_fetch',
  'web_search',
  'image_gen',
  'agent',
  'skill',
  'save_memory',
  'todo_write',
  'cron_create',
  'cron_list',
  'cron_delete',
  'loop_wakeup',
  'create_sub_session',
  'list_agents',
  'task_create',
  'task_update',
  'task_list',
  'task_stop',
  'team_create',
  'team_delete',
  'team_plan_approval',
  'request_shutdown',
  'send_message',
  'enter_worktree',
  'exit_worktree',
  'workflow',
  'artifact',
  'record_artifact',
  'record_source',
  'report_findings',
  'read_mcp_resource',
  'ask_user_question',
  'enter_plan_mode',
  'exit_plan_mode',
  'get_goal',
  'update_goal',
  'propose_goal',
];

const QWEN_SETTINGS = {
  permissions: { deny: QWEN_OWN_TOOLS },
  tools: { approvalMode: 'default', autoAccept: false, toolSearch: { enabled: false }, useRipgrep: false },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
  security: { folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false },
};

/**
 * Cline (3.0): every tool of its own off, so the model is offered none (its
 * ACP session reads no MCP server a client gives, so it has none of Aion's
 * either); none approved unasked; no telemetry, no auto-update.
 */
const CLINE_OWN_TOOLS = ['run_commands', 'editor', 'read_files', 'search_codebase', 'fetch_web_content', 'web_search', 'spawn_agent'];

const CLINE_SETTINGS = {
  telemetryOptOut: true,
  autoUpdateEnabled: false,
  toolAutoApprove: false,
  disabledTools: CLINE_OWN_TOOLS,
  // Its web search is a switch of its own besides the list.
  tools: { web_search: { enabled: false } },
};

/** Files by their path under HOME. */
const HOME_FILES: Record<string, string> = {
  '.gemini/settings.json': `${JSON.stringify(GEMINI_SETTINGS, null, 2)}\n`,
  '.claude/settings.json': `${JSON.stringify(CLAUDE_SETTINGS, null, 2)}\n`,
  '.codex/config.toml': CODEX_CONFIG,
  '.config/opencode/opencode.json': `${JSON.stringify(OPENCODE_CONFIG, null, 2)}\n`,
  '.config/kilo/kilo.json': `${JSON.stringify(OPENCODE_CONFIG, null, 2)}\n`,
  '.qwen/settings.json': `${JSON.stringify(QWEN_SETTINGS, null, 2)}\n`,
  '.cline/data/settings/global-settings.json': `${JSON.stringify(CLINE_SETTINGS, null, 2)}\n`,
};

export interface ScratchFolders {
  /** The agent's own folder: its only writable place; its parent is the server's. */
  root: string;
  home: string;
  work: string;
}

/**
 * The agent's scratch folder as new: whatever it left there (links included)
 * is gone, and HOME holds Aion's settings files alone. Call it while no
 * process of the agent runs.
 */
export async function freshScratch({ root, home, work }: ScratchFolders): Promise<void> {
  await removeScratch(root);
  // Without `recursive`, mkdir fails where anything is in the way and never follows a link there.
  await mkdir(root, { mode: 0o700 });
  await mkdir(home, { mode: 0o700 });
  await mkdir(work, { mode: 0o700 });
  const made = new Set<string>();
  for (const [file, text] of Object.entries(HOME_FILES)) {
    const target = path.join(home, file);
    // Each folder on the way, one by one, so that none is made through a link (`.config`, then `.config/opencode`).
    const parts = path.dirname(file).split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = path.join(home, ...parts.slice(0, depth));
      if (made.has(folder)) continue;
      await mkdir(folder, { mode: 0o700 });
      made.add(folder);
    }
    // `wx` (O_CREAT | O_EXCL) never opens through a link.
    await writeFile(target, text, { mode: 0o600, flag: 'wx' });
  }
}

/**
 * Removes an agent's scratch folder without following any link in it. One the
 * server cannot empty (the agent took the permissions off a folder of its
 * own) is moved aside in the server's folder, out of the next start's way.
 */
export async function removeScratch(root: string): Promise<void> {
  try {
    await rm(root, { recursive: true, force: true });
  } catch {
    await rename(root, path.join(path.dirname(root), `.gone-${randomBytes(8).toString('hex')}`));
  }
}
