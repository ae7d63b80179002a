// session/request_permission, decided by rule and never by the agent
// (DESIGN.md §6): a call of Aion's own tools is allowed (a write becomes a
// proposal anyway); an edit of the shared document is applied to the shared
// buffer and allowed; anything else — a shell, another file, a fetch — is
// rejected, with the sentence why. Options are chosen by their kind, never by
// guessing their ids.
import type * as acp from '@agentclientprotocol/sdk';

export interface PermissionContext {
  /** The shared document's absolute path under the agent's working folder, or null. */
  sharedPath: string | null;
  /** Whether NAME is one of the tools Aion's /mcp serves this conversation. */
  isAionTool(name: string): boolean;
  /** Applies an agent's diff of the shared document to the buffer, as one edit batch. */
  editShared(oldText: string | null, newText: string): Promise<void>;
}

export type PermissionDecision = { allowed: true } | { allowed: false; sentence: string };

/** The MCP server name Aion gives agents; agents prefix its tools with it (`mcp__aion__whoami`). */
export const AION_MCP_NAME = 'aion';

export async function decidePermission(request: acp.RequestPermissionRequest, context: PermissionContext): Promise<PermissionDecision> {
  const call = request.toolCall;
  if (aionToolOf(call, context)) return { allowed: true };
  const diffs = (call.content ?? []).flatMap((c) => (c.type === 'diff' ? [c] : []));
  if (diffs.length > 0 && context.sharedPath !== null && diffs.every((d) => d.path === context.sharedPath)) {
    for (const diff of diffs) await context.editShared(diff.oldText ?? null, diff.newText);
    return { allowed: true };
  }
  return { allowed: false, sentence: refusalSentence(call, diffs.length > 0) };
}

function aionToolOf(call: acp.ToolCallUpdate, context: PermissionContext): boolean {
  const meta = call._meta?.claudeCode as { toolName?: unknown } | undefined;
  const names = [call.name, call.title, typeof meta?.toolName === 'string' ? meta.toolName : null];
  return names.some((name) => typeof name === 'string' && context.isAionTool(name.replace(`mcp__${AION_MCP_NAME}__`, '')));
}

function refusalSentence(call: acp.ToolCallUpdate, editsFiles: boolean): string {
  if (call.kind === 'execute') return 'Aion gives agents no shell: they run on the server’s host';
  if (call.kind === 'fetch') return 'Aion lets no agent fetch from the server’s host';
  if (editsFiles || call.kind === 'edit' || call.kind === 'delete' || call.kind === 'move') {
    return 'an agent may edit only the shared document, in the operator’s buffer; saving is the operator’s';
  }
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
