// How Aion starts Cline (`cline` 3.0.65, `cline --acp`; npm's `.bin/cline`
// links to the native Bun binary of @cline/cli-linux-x64) against the mock
// Chat Completions API of mock-chat-completions.ts, as measured (DESIGN.md §6):
// - Signed in by CLINE_API_KEY (without it `session/new` answers "Call
//   authenticate", whose methods are account logins); its default provider,
//   Cline's own API, is moved to the mock by CLINE_API_BASE_URL: the model at
//   `/api/v1/chat/completions` (OpenAI-compatible), and a GET of
//   `/api/v1/users/me` that the mock answers 404, which Cline ignores.
// - Its ACP session reads none of the MCP servers `session/new` gives (3.0.65's
//   session config is built without them; it loads MCP servers only from its
//   own cline_mcp_settings.json), and its permission requests carry no
//   structured marker: a title `aion__read_document: {…}` (its tool's name and
//   a summary of the input), a kind, no `_meta`. So it reaches none of Aion's
//   tools, and would be refused them if it did: it answers in words.
// - CLINE_SESSION_BACKEND_MODE=local: otherwise it starts a "hub" daemon
//   (`cline --cline-hub-daemon`, listening on 127.0.0.1:25463) in a session
//   of its own, which outlives the agent (measured outside the sandbox;
//   none was left after the sandboxed runs).
// - The rest is Aion's .cline/data/settings/global-settings.json
//   (src/acp/agent-home.ts): its own tools off (a call of one is rejected
//   before it runs, with no request), no telemetry, no auto-update, no
//   auto-approval. Its modes are `plan` and `act`; it starts in `act`, which
//   asks before each tool while its `auto_approve` option is off (Aion keeps
//   it off).
import path from 'node:path';
import { AGENT_CACHE, REAL_AGENTS, type RealAgentConfig } from './install.js';
import type { OwnTools } from './mock-chat-completions.js';

/** Cline's own tools as its model calls them (3.0: `run_commands`, `editor`, `fetch_web_content`). */
export const CLINE_TOOLS: OwnTools = {
  shell: (command) => ({ name: 'run_commands', args: { commands: [command] } }),
  write: (filePath, content) => ({ name: 'editor', args: { path: filePath, new_text: content } }),
  fetch: (url) => ({ name: 'fetch_web_content', args: { requests: [{ url, prompt: 'Summarise the page' }] } }),
};

/** The native binary npm's `.bin/cline` links to, from the cache `installed('cline')` fills. */
export const CLINE = path.join(AGENT_CACHE, REAL_AGENTS.cline.spec.replace(/[/@]/g, '_'), 'node_modules', '.bin', 'cline');

export function clineAgent(mockUrl: string): RealAgentConfig {
  return { command: CLINE, args: ['--acp'], env: { CLINE_API_KEY: 'test', CLINE_API_BASE_URL: mockUrl, CLINE_SESSION_BACKEND_MODE: 'local' } };
}
