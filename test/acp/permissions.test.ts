// The permission rule for agents' requests, on the shapes the real agents
// send: kind first (a shell, a fetch, a delete, a move, an unknown kind are
// refused whatever their title or markers claim; Codex's MCP approvals, of
// kind execute, are Aion's tools or refused), then an Aion tool known
// only by its agent's structured marker for the `aion` server (never by its
// title), then an edit of the shared document alone. And the choice of the
// mode and options that make an agent ask, and of its authentication.
import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { authenticationFor } from '../../src/acp/authentication.js';
import { askingModeOf, askingOptionsOf } from '../../src/acp/modes.js';
import { aionToolOf, decidePermission, type PermissionContext } from '../../src/acp/permissions.js';

const SHARED = '/scratch/work/app.yaml';
const TOOLS = new Set(['read_document', 'write_document', 'deploy', 'assistant_document_edit']);

function contextFor(edits: string[] = []): PermissionContext {
  return {
    sharedPath: SHARED,
    isAionTool: (name) => TOOLS.has(name),
    knownKind: null,
    earlier: null,
    editShared: async (_old, text) => void edits.push(text),
  };
}

const decideWith = (request: acp.RequestPermissionRequest) => (context: PermissionContext) => decidePermission(request, context);

const ask = (toolCall: Partial<acp.ToolCallUpdate>, context = contextFor()) =>
  decidePermission({ sessionId: 's', toolCall: { toolCallId: 't-1', ...toolCall }, options: [] }, context);

describe('by kind first', () => {
  it.each(['execute', 'fetch', 'delete', 'move', 'launch_missiles'])('refuses kind %s whatever its title or markers say', async (kind) => {
    const decision = await ask({
      kind: kind as acp.ToolKind,
      title: 'deploy',
      toolCallId: 'mcp_aion_deploy__1',
      _meta: { claudeCode: { toolName: 'mcp__aion__deploy' } },
    });
    expect(decision.allowed).toBe(false);
  });

  it('refuses a shell titled like an Aion tool, and says there is no shell', async () => {
    expect(await ask({ kind: 'execute', title: 'read_document' })).toEqual({
      allowed: false,
      sentence: 'Aion gives agents no shell: they run on the server’s host',
    });
  });

  it('refuses an execute carrying a diff of the shared document, and leaves the buffer alone', async () => {
    const edits: string[] = [];
    const decision = await ask({ kind: 'execute', content: [{ type: 'diff', path: SHARED, oldText: 'a', newText: 'b' }] }, contextFor(edits));
    expect(decision.allowed).toBe(false);
    expect(edits).toEqual([]);
  });

  it('takes the kind of an earlier update of the same call when the request names none', async () => {
    const context = { ...contextFor(), knownKind: 'execute' as const };
    expect((await ask({ _meta: { claudeCode: { toolName: 'mcp__aion__read_document' } } }, context)).allowed).toBe(false);
  });
});

describe('then by verified identity, never by title', () => {
  it('refuses a call titled with an Aion tool’s name and no marker', async () => {
    for (const title of ['read_document', 'mcp__aion__read_document', 'read_document (aion MCP Server)', 'aion-read_document']) {
      expect((await ask({ kind: 'other', title })).allowed).toBe(false);
    }
  });

  it('allows Claude’s mcp__aion__ tool name in _meta.claudeCode', async () => {
    expect(await ask({ title: 'anything', _meta: { claudeCode: { toolName: 'mcp__aion__read_document' } } })).toEqual({ allowed: true });
    expect((await ask({ _meta: { claudeCode: { toolName: 'mcp__other__read_document' } } })).allowed).toBe(false);
    expect((await ask({ _meta: { claudeCode: { toolName: 'Bash' } } })).allowed).toBe(false);
  });

  it('allows Gemini’s mcp_aion_ call ids, and no other server’s', async () => {
    expect(await ask({ kind: 'other', toolCallId: 'mcp_aion_read_document__1764590000' })).toEqual({ allowed: true });
    expect((await ask({ kind: 'other', toolCallId: 'mcp_evil_read_document__1' })).allowed).toBe(false);
    expect((await ask({ kind: 'other', toolCallId: 'run_shell_command__1' })).allowed).toBe(false);
  });

  it('allows Codex’s MCP approvals (kind execute) for the aion server, naming the tool its own MCP update of the call named', async () => {
    const approval = (marked = true) =>
      decideWith({ sessionId: 's', ...(marked ? { _meta: { is_mcp_tool_approval: true } } : {}), toolCall: { toolCallId: 'call_1', kind: 'execute', status: 'pending' }, options: [] });
    const invoked = (server: string, meta: Record<string, unknown> | null = { is_mcp_tool_call: true }) => ({
      ...contextFor(),
      knownKind: 'execute' as const,
      earlier: { title: `mcp.${server}.write_document`, rawInput: { server, tool: 'write_document', arguments: {} }, meta },
    });
    expect(await approval()(invoked('aion'))).toEqual({ allowed: true });
    expect((await approval()(invoked('other'))).allowed).toBe(false);
    // An update that was no MCP call (its shell), or no update at all: refused.
    expect((await approval()(invoked('aion', null))).allowed).toBe(false);
    expect((await approval()(contextFor())).allowed).toBe(false);
    // Without the approval's own marker, kind execute is a shell's.
    expect(await approval(false)(invoked('aion'))).toEqual({ allowed: false, sentence: 'Aion gives agents no shell: they run on the server’s host' });
    const undeclared = { ...invoked('aion'), earlier: { title: 'mcp.aion.drop_database', rawInput: { server: 'aion', tool: 'drop_database' }, meta: { is_mcp_tool_call: true } } };
    expect(await approval()(undeclared)).toEqual({ allowed: false, sentence: 'Aion serves no tool drop_database to this conversation' });
  });

  it('allows Copilot’s aion- tools, named so by the call’s first update, and never its shell titled alike', async () => {
    const first = (title: string) => ({ ...contextFor(), earlier: { title, rawInput: {}, meta: null } });
    expect(await ask({ kind: 'other', title: 'write_document', rawInput: {} }, first('aion-write_document'))).toEqual({ allowed: true });
    expect((await ask({ kind: 'other', title: 'write_document' }, first('evil-write_document'))).allowed).toBe(false);
    expect((await ask({ kind: 'other', title: 'write_document' })).allowed).toBe(false);
    expect((await ask({ kind: 'execute', title: 'deploy', rawInput: { command: 'deploy' } }, first('aion-deploy'))).allowed).toBe(false);
  });

  it('refuses a tool of the aion server that Aion does not serve this conversation', async () => {
    expect(await ask({ _meta: { claudeCode: { toolName: 'mcp__aion__drop_database' } } })).toEqual({
      allowed: false,
      sentence: 'Aion serves no tool drop_database to this conversation',
    });
  });

  it('names the Aion tool of each agent’s marker', () => {
    expect(aionToolOf({ toolCallId: 'x', _meta: { claudeCode: { toolName: 'mcp__aion__deploy' } } })).toBe('deploy');
    expect(aionToolOf({ toolCallId: 'mcp_aion_assistant_document_edit__7' })).toBe('assistant_document_edit');
    expect(aionToolOf({ toolCallId: 'x', title: 'deploy' })).toBeNull();
  });
});

describe('an edit', () => {
  it('of the shared document alone is applied to the buffer and allowed', async () => {
    const edits: string[] = [];
    const decision = await ask({ kind: 'edit', content: [{ type: 'diff', path: SHARED, oldText: 'a', newText: 'b' }] }, contextFor(edits));
    expect(decision).toEqual({ allowed: true });
    expect(edits).toEqual(['b']);
  });

  it('touching any other file is refused, and nothing of it applied', async () => {
    const edits: string[] = [];
    const content: acp.ToolCallContent[] = [
      { type: 'diff', path: SHARED, oldText: 'a', newText: 'b' },
      { type: 'diff', path: '/etc/passwd', oldText: null, newText: 'root::0:0' },
    ];
    expect((await ask({ kind: 'edit', content }, contextFor(edits))).allowed).toBe(false);
    expect(edits).toEqual([]);
  });
});

describe('asking before acting', () => {
  const modes = (ids: string[], current = ids[0] ?? '') => ({ currentModeId: current, availableModes: ids.map((id) => ({ id, name: id })) });

  it('picks the asking mode by meaning, plain or URL-style', () => {
    expect(askingModeOf(modes(['bypassPermissions', 'default'], 'bypassPermissions'))).toEqual({ set: 'default' });
    expect(askingModeOf(modes(['default', 'acceptEdits']))).toEqual({ set: null });
    expect(askingModeOf(modes(['read-only', 'auto', 'full-access'], 'auto'))).toEqual({ set: 'read-only' });
    const url = 'https://agentclientprotocol.com/protocol/session-modes#';
    expect(askingModeOf(modes([`${url}autopilot`, `${url}agent`, `${url}plan`]))).toEqual({ set: `${url}agent` });
    expect(askingModeOf(modes(['yolo', 'autopilot']))).toEqual({ none: 'yolo, autopilot' });
    expect(askingModeOf(null)).toEqual({ set: null });
  });

  it('turns off options that skip asking', () => {
    const allowAll: acp.SessionConfigOption = {
      id: 'allow_all',
      name: 'Allow all tools',
      type: 'select',
      currentValue: 'on',
      options: [
        { value: 'on', name: 'On' },
        { value: 'off', name: 'Off' },
      ],
    };
    expect(askingOptionsOf([allowAll])).toEqual([{ sessionId: '', configId: 'allow_all', value: 'off' }]);
    expect(askingOptionsOf([{ ...allowAll, currentValue: 'off' }])).toEqual([]);
    expect(askingOptionsOf([{ id: 'yolo', name: 'YOLO', type: 'boolean', currentValue: true }])).toEqual([
      { sessionId: '', configId: 'yolo', type: 'boolean', value: false },
    ]);
    const model: acp.SessionConfigOption = { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] };
    expect(askingOptionsOf([model])).toEqual([]);
  });
});

describe('authentication', () => {
  it('uses the method whose variables the agent was given, else names them', () => {
    const methods: acp.AuthMethod[] = [
      { id: 'oauth', name: 'Log in with Google' },
      { id: 'gemini-api-key', name: 'Use Gemini API key', description: 'Requires setting the `GEMINI_API_KEY` environment variable' },
    ];
    expect(authenticationFor(methods, { GEMINI_API_KEY: 'k' })).toEqual({ methodId: 'gemini-api-key' });
    expect(authenticationFor(methods, {})).toEqual({ missing: 'pass it GEMINI_API_KEY (its "env" or "pass_env" in AION_AGENTS)' });
    expect(authenticationFor([{ id: 'oauth', name: 'Log in' }], {})).toEqual({ missing: expect.stringContaining('no method Aion can use') });
  });
});
