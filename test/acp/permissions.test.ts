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
import { actsUnasked, askingModeOf, askingOptionsOf, asksBeforeActing } from '../../src/acp/modes.js';
import { optionsView } from '../../src/acp/options.js';
import { aionToolOf, decidePermission, refusedByKind, type PermissionContext } from '../../src/acp/permissions.js';

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

describe('refused by kind alone (such a request never waits for its call’s first update)', () => {
  const request = (kind: acp.ToolKind | undefined, meta?: Record<string, unknown>): acp.RequestPermissionRequest => ({
    sessionId: 's',
    toolCall: { toolCallId: 'c', ...(kind ? { kind } : {}) },
    options: [],
    ...(meta ? { _meta: meta } : {}),
  });

  it('says so for a shell, a fetch, a delete and a move, or a kind an earlier update gave; not for what a marker may decide', () => {
    for (const kind of ['execute', 'fetch', 'delete', 'move'] as const) expect(refusedByKind(request(kind), null), kind).toBe(true);
    expect(refusedByKind(request(undefined), 'execute')).toBe(true);
    for (const kind of ['read', 'edit', 'other'] as const) expect(refusedByKind(request(kind), null), kind).toBe(false);
    expect(refusedByKind(request(undefined), null)).toBe(false);
    // Codex's MCP approvals come as `execute` and are decided by their own marker.
    expect(refusedByKind(request('execute', { is_mcp_tool_approval: true }), null)).toBe(false);
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

  it('allows OpenCode’s (and Kilo’s) aion_ tools, so named with kind other by the pending first update, and never a shell’s request titled alike', async () => {
    const first = (title: string, kind: acp.ToolKind) => ({ ...contextFor(), earlier: { title, kind, rawInput: {}, meta: null } });
    expect(await ask({ kind: 'other', title: 'aion_write_document', rawInput: {} }, first('aion_write_document', 'other'))).toEqual({ allowed: true });
    expect(await ask({ kind: 'other', title: 'aion_drop_database' }, first('aion_drop_database', 'other'))).toEqual({
      allowed: false,
      sentence: 'Aion serves no tool drop_database to this conversation',
    });
    // The shell's external_directory request is kind other, titled with the description the model wrote; its first update was `bash`.
    expect((await ask({ kind: 'other', title: 'aion_deploy', rawInput: { command: 'deploy' } }, first('bash', 'execute'))).allowed).toBe(false);
    // A first update of another kind titled alike (a model-written title arriving first) is no marker.
    expect((await ask({ kind: 'other', title: 'aion_deploy' }, first('aion_deploy', 'execute'))).allowed).toBe(false);
    expect((await ask({ kind: 'other', title: 'aion_deploy' })).allowed).toBe(false);
    expect((await ask({ kind: 'other', title: 'other_deploy' }, first('other_deploy', 'other'))).allowed).toBe(false);
  });

  it('allows Qwen Code’s mcp__aion__ tools, named so by the request and by a first update that gives the aion MCP server, and nothing else', async () => {
    const first = (meta: Record<string, unknown>) => ({ ...contextFor(), earlier: { title: 'x', kind: 'other' as const, rawInput: {}, meta } });
    const fromAion = (toolName: string) => first({ toolName, provenance: 'mcp', serverId: 'aion', phase: 'preparing' });
    expect(await ask({ kind: 'read', title: '{"path":"app.yaml"}', _meta: { toolName: 'mcp__aion__read_document' } }, fromAion('mcp__aion__read_document'))).toEqual({ allowed: true });
    expect(await ask({ kind: 'other', _meta: { toolName: 'mcp__aion__drop_database' } }, fromAion('mcp__aion__drop_database'))).toEqual({
      allowed: false,
      sentence: 'Aion serves no tool drop_database to this conversation',
    });
    // Its own tools are of provenance builtin; another server's are not Aion's; the request alone is no marker.
    expect((await ask({ kind: 'other', _meta: { toolName: 'mcp__aion__deploy' } }, first({ toolName: 'mcp__aion__deploy', provenance: 'builtin' }))).allowed).toBe(false);
    expect((await ask({ kind: 'other', _meta: { toolName: 'mcp__aion__deploy' } }, first({ toolName: 'mcp__aion__deploy', provenance: 'mcp', serverId: 'other' }))).allowed).toBe(false);
    expect((await ask({ kind: 'other', _meta: { toolName: 'mcp__aion__deploy' } })).allowed).toBe(false);
    // The request naming another tool than its first update did.
    expect((await ask({ kind: 'other', _meta: { toolName: 'mcp__aion__deploy' } }, fromAion('mcp__aion__read_document'))).allowed).toBe(false);
  });

  it('refuses Cline’s calls, which carry a title alone (`aion__read_document: {…}`), whatever they name', async () => {
    const title = 'aion__read_document: {"project":"shop","path":"app.yaml"}';
    const first = { ...contextFor(), earlier: { title, kind: 'other' as const, rawInput: { project: 'shop', path: 'app.yaml' }, meta: null } };
    expect(await ask({ kind: 'other', title, rawInput: { project: 'shop', path: 'app.yaml' } }, first)).toEqual({
      allowed: false,
      sentence: 'an agent may use only Aion’s own tools and edit the shared document',
    });
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
    // The most preferred asking mode is set even where the current one is an asking meaning too: Codex (codex-acp 2.6)
    // starts in `agent`, where its own reviewer model approves, and is set to `read-only`, where the client is asked.
    expect(askingModeOf(modes(['read-only', 'workspace-write', 'agent', 'agent-full-access'], 'agent'))).toEqual({ set: 'read-only' });
    expect(askingModeOf(modes(['build', 'default'], 'build'))).toEqual({ set: 'default' });
  });

  it('tells an asking meaning that decides alone by how the session describes it: Codex’s `agent` (its reviewer approves), not Copilot’s', () => {
    // codex-acp 2.6's modes as it describes them; Copilot's `agent` bears no such words.
    const codex = {
      currentModeId: 'agent',
      availableModes: [
        { id: 'read-only', name: 'Read-only', description: 'Requires approval to edit files and access the internet.' },
        { id: 'agent', name: 'Auto review', description: 'Only ask for actions detected as potentially unsafe' },
        { id: 'agent-full-access', name: 'Full access', description: 'Unrestricted access to the internet and any file on your computer' },
      ],
    };
    expect(asksBeforeActing('agent', codex)).toBe(false);
    expect(asksBeforeActing('read-only', codex)).toBe(true);
    expect(asksBeforeActing('agent', modes(['agent', 'plan']))).toBe(true);
    expect(askingModeOf({ ...codex, availableModes: codex.availableModes.filter((m) => m.id !== 'read-only') })).toEqual({ none: 'agent, agent-full-access' });
    // The agent switching itself there is caught as a switch to acting unasked; the operator is refused it.
    expect(actsUnasked({ sessionUpdate: 'current_mode_update', currentModeId: 'agent' }, codex)).toBe('mode agent');
    const view = optionsView('codex', { modes: { ...codex, currentModeId: 'read-only' }, configOptions: [] });
    expect(view.mode?.values.map((v) => [v.value, v.refused === null])).toEqual([
      ['read-only', true],
      ['agent', false],
      ['agent-full-access', false],
    ]);
    // Offered as a config option of category `mode`, the same.
    const option: acp.SessionConfigOption = {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: 'agent',
      options: codex.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description })),
    };
    expect(askingOptionsOf([option])).toEqual([{ sessionId: '', configId: 'mode', value: 'read-only' }]);
  });

  it('sets Kilo’s `code` (it acts by the permission rules Aion sets), never its read-only `ask` without MCP tools', () => {
    const kilo = (current: string): acp.SessionConfigOption => ({
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: current,
      options: ['code', 'ask', 'debug', 'orchestrator', 'plan'].map((value) => ({ value, name: value })),
    });
    expect(askingOptionsOf([kilo('code')])).toEqual([]);
    // `code` is preferred to `ask`, from any mode it starts in.
    expect(askingOptionsOf([kilo('orchestrator')])).toEqual([{ sessionId: '', configId: 'mode', value: 'code' }]);
    expect(askingOptionsOf([kilo('ask')])).toEqual([{ sessionId: '', configId: 'mode', value: 'code' }]);
  });

  it('keeps Cline’s `act` (it asks before each tool while its auto-approve is off) and turns that off', () => {
    const mode: acp.SessionConfigOption = {
      id: 'mode',
      name: 'Session Mode',
      category: 'mode',
      type: 'select',
      currentValue: 'act',
      options: [
        { value: 'plan', name: 'Plan' },
        { value: 'act', name: 'Act' },
      ],
    };
    const autoApprove: acp.SessionConfigOption = { id: 'auto_approve', name: 'Auto-approve tools', type: 'boolean', currentValue: true };
    expect(askingOptionsOf([mode, autoApprove])).toEqual([{ sessionId: '', configId: 'auto_approve', type: 'boolean', value: false }]);
    expect(askingOptionsOf([mode, { ...autoApprove, currentValue: false }])).toEqual([]);
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
