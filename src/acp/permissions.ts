// session/request_permission, decided by rule and never by the agent
// (DESIGN.md §6). First by kind: a shell, a fetch, a delete, a move and any
// kind ACP does not name are refused, whatever the title, name or metadata
// say — but for Codex's MCP approvals, which it marks as such and sends, like
// every MCP call of its code mode, with kind `execute`: those are one of
// Aion's tools or refused. Then by verified identity: a call of Aion's own MCP server is
// recognised only by the structured markers each agent puts on it for the
// server name Aion passed in session/new — never by its title, which an agent
// fills with free text — and allowed (the executor makes its writes
// proposals). Last, an edit whose every diff is on the shared document is
// applied to the shared buffer. Options are chosen by their kind, never by
// guessing their ids.
import type * as acp from '@agentclientprotocol/sdk';
import { isJsonObject } from '../validation/json-object.js';

export interface PermissionContext {
  /** The shared document's absolute path under the agent's working folder, or null. */
  sharedPath: string | null;
  /** Whether NAME is one of the tools Aion's /mcp serves this conversation. */
  isAionTool(name: string): boolean;
  /** The kind an earlier update of the same tool call gave, when the request itself names none. */
  knownKind: acp.ToolKind | null;
  /** What the first update of the same tool call said, before the request (Codex and Copilot name the MCP tool there). */
  earlier: EarlierUpdate | null;
  /** Applies an agent's diff of the shared document to the buffer, as one edit batch. */
  editShared(oldText: string | null, newText: string): Promise<void>;
}

/** The first `tool_call` update of a call: its title, raw input and metadata, as the agent set them. */
export interface EarlierUpdate {
  title: string | null;
  /** The kind that first update gave (null when it named none). */
  kind?: acp.ToolKind | null;
  rawInput: unknown;
  meta: Record<string, unknown> | null;
}

export type PermissionDecision = { allowed: true } | { allowed: false; sentence: string };

/** The MCP server name Aion gives agents; each agent marks its calls of that server's tools with it. */
export const AION_MCP_NAME = 'aion';

/** Kinds that never run, whoever asks: Aion gives agents no shell, no network of their own, no file moves. */
const REFUSED_KINDS = new Set<string>(['execute', 'fetch', 'delete', 'move']);
/** The kinds ACP names that may be one of Aion's tools or an edit of the shared document. */
const DECIDABLE_KINDS = new Set<string>(['read', 'edit', 'search', 'think', 'other', 'switch_mode']);

export async function decidePermission(request: acp.RequestPermissionRequest, context: PermissionContext): Promise<PermissionDecision> {
  const call = request.toolCall;
  const codex = codexMcpToolOf(request, context.earlier);
  if (codex !== undefined) {
    if (codex === null) return { allowed: false, sentence: refusalSentence('other') };
    return context.isAionTool(codex) ? { allowed: true } : { allowed: false, sentence: `Aion serves no tool ${codex} to this conversation` };
  }
  // ACP's default kind is `other`; a kind it does not name is refused like a shell.
  const kind: string = call.kind ?? context.knownKind ?? 'other';
  if (REFUSED_KINDS.has(kind) || !DECIDABLE_KINDS.has(kind)) return { allowed: false, sentence: refusalSentence(kind) };
  const tool = aionToolOf(call, context.earlier);
  if (tool !== null) {
    return context.isAionTool(tool) ? { allowed: true } : { allowed: false, sentence: `Aion serves no tool ${tool} to this conversation` };
  }
  const diffs = (call.content ?? []).flatMap((c) => (c.type === 'diff' ? [c] : []));
  if (kind === 'edit' && diffs.length > 0 && context.sharedPath !== null && diffs.every((d) => d.path === context.sharedPath)) {
    for (const diff of diffs) await context.editShared(diff.oldText ?? null, diff.newText);
    return { allowed: true };
  }
  return { allowed: false, sentence: refusalSentence(kind) };
}

/** Whether the call is refused by its kind alone, whatever else it says (Codex's MCP approvals are decided apart). */
export function refusedByKind(request: acp.RequestPermissionRequest, knownKind: acp.ToolKind | null): boolean {
  if (request._meta?.is_mcp_tool_approval === true) return false;
  const kind: string = request.toolCall.kind ?? knownKind ?? 'other';
  return REFUSED_KINDS.has(kind) || !DECIDABLE_KINDS.has(kind);
}

/**
 * The Aion tool a call names by its agent's own structured marker for the
 * `aion` MCP server, or null. Each marker is one an agent sets from the MCP
 * server and tool it calls, not from text the model wrote.
 */
export function aionToolOf(call: acp.ToolCallUpdate, earlier: EarlierUpdate | null = null): string | null {
  const meta = call._meta ?? {};
  // claude-agent-acp: the SDK's tool name, `mcp__aion__read_document`.
  const claude = recordOf(meta.claudeCode)?.toolName;
  if (typeof claude === 'string') return after(claude, `mcp__${AION_MCP_NAME}__`);
  // Gemini CLI: its MCP tools' call ids are `mcp_aion_read_document__<n>`… (the server's name, the tool's, a counter).
  const gemini = /^mcp_([A-Za-z0-9-]+)_([A-Za-z0-9_]+?)__/.exec(call.toolCallId);
  if (gemini) return gemini[1] === AION_MCP_NAME ? (gemini[2] ?? null) : null;
  // GitHub Copilot: the call's first update is titled with its registered name, `aion-read_document`, and the
  // request with the tool's own; its own tools have fixed titles, and its shell (whose title the model writes) is
  // refused by kind before this.
  const registered = earlier?.title ?? '';
  if (call.title && registered === `${AION_MCP_NAME}-${call.title}`) return call.title;
  // OpenCode (1.18): the call's first update, sent while it is pending and before any title the model wrote, is
  // titled with the name OpenCode registered the tool under — `aion_read_document`, the MCP server's name and the
  // tool's joined by `_` — with kind `other`, and the request repeats both. Its shell's first update is `bash` with
  // kind `execute`, whatever description the model gave it (the description titles only later updates, and the
  // shell's `external_directory` request). Kilo (7.7), built on OpenCode, marks its calls the same way (measured).
  // A title with more than a tool's name in it (Cline's `aion__read_document: {…}`, of kind other too) is no such marker.
  const opencode = call.title && /^[A-Za-z0-9_-]+$/.test(call.title) ? call.title : null;
  if (call.kind === 'other' && earlier?.kind === 'other' && opencode && earlier.title === opencode) return after(opencode, `${AION_MCP_NAME}_`);
  // Qwen Code (0.24): the call's first update names the registered tool, `mcp__aion__read_document`, with the MCP
  // server it belongs to (`_meta.provenance: "mcp"`, `_meta.serverId: "aion"`), and the request repeats the name.
  const qwen = meta.toolName;
  const first = earlier?.meta ?? {};
  if (typeof qwen === 'string' && first.toolName === qwen && first.provenance === 'mcp' && first.serverId === AION_MCP_NAME) {
    return after(qwen, `mcp__${AION_MCP_NAME}__`);
  }
  return null;
}

/**
 * Codex (codex-acp 2.x): undefined when the request is no MCP approval of
 * its; else the Aion tool it asks for, or null for another server's. The
 * request says it is an MCP tool approval (`_meta.is_mcp_tool_approval`),
 * and the call's own first update (the same id) was an MCP call
 * (`_meta.is_mcp_tool_call`) whose raw input names the server and tool
 * Codex invoked — not text the model wrote.
 */
function codexMcpToolOf(request: acp.RequestPermissionRequest, earlier: EarlierUpdate | null): string | null | undefined {
  if (request._meta?.is_mcp_tool_approval !== true) return undefined;
  const invoked = recordOf(earlier?.rawInput);
  if (earlier?.meta?.is_mcp_tool_call !== true || invoked?.server !== AION_MCP_NAME) return null;
  return typeof invoked.tool === 'string' ? invoked.tool : null;
}

function after(name: string, prefix: string): string | null {
  return name.startsWith(prefix) ? name.slice(prefix.length) : null;
}

function recordOf(value: unknown): Record<string, unknown> | null {
  return isJsonObject(value) ? value : null;
}

function refusalSentence(kind: string): string {
  if (kind === 'execute') return 'Aion gives agents no shell: they run on the server’s host';
  if (kind === 'fetch') return 'Aion lets no agent fetch from the server’s host';
  if (kind === 'edit' || kind === 'delete' || kind === 'move') {
    return 'an agent may edit only the shared document, in the operator’s buffer; saving is the operator’s';
  }
  if (!DECIDABLE_KINDS.has(kind)) return `Aion refuses a tool call of kind ${kind.slice(0, 40)}`;
  return 'an agent may use only Aion’s own tools and edit the shared document';
}

/** The reply that carries a decision, by option kind; `cancelled` when no option of that kind exists. */
export function permissionReply(options: acp.PermissionOption[], allowed: boolean | 'cancelled'): acp.RequestPermissionResponse {
  if (allowed === 'cancelled') return { outcome: { outcome: 'cancelled' } };
  const kinds: acp.PermissionOptionKind[] = allowed ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return { outcome: { outcome: 'selected', optionId: option.optionId } };
  }
  return { outcome: { outcome: 'cancelled' } };
}
