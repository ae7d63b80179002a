// The answer of one agent turn, built from its session/updates as they come:
// message chunks become its text, tool calls (upserted by toolCallId, from
// updates and permission requests alike, as Zed does) and the plan are shown
// on it, and the writes the agent calls through /mcp are its proposals.
import type * as acp from '@agentclientprotocol/sdk';
import type { PlanEntryView, ToolCallView, TurnEvent } from '../assistant/events.js';
import type { PendingProposal } from '../assistant/proposing.js';

/** What an agent answer keeps in its message's `blocks`, beside the text. */
export interface AgentBlocks {
  acp: { tool_calls: ToolCallView[]; plan: PlanEntryView[] };
}

export function isAgentBlocks(blocks: unknown): blocks is AgentBlocks {
  return typeof blocks === 'object' && blocks !== null && 'acp' in blocks;
}

export class AgentAnswer {
  private readonly chunks: string[] = [];
  private readonly toolCalls = new Map<string, ToolCallView>();
  private plan: PlanEntryView[] = [];
  readonly proposals: PendingProposal[] = [];

  constructor(private readonly emit: (event: TurnEvent) => void) {}

  apply(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') {
          this.chunks.push(update.content.text);
          this.emit({ type: 'text', delta: update.content.text });
        }
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.upsertToolCall(update);
        return;
      case 'plan':
        this.plan = update.entries.map(({ content, priority, status }) => ({ content, priority, status }));
        this.emit({ type: 'plan', entries: this.plan });
        return;
      default:
      // Thoughts, commands, modes, usage: not part of the answer.
    }
  }

  upsertToolCall(call: acp.ToolCallUpdate, refused?: string): void {
    const before = this.toolCalls.get(call.toolCallId);
    const view: ToolCallView = {
      id: call.toolCallId,
      title: call.title ?? before?.title ?? call.toolCallId,
      kind: call.kind ?? before?.kind ?? 'other',
      status: refused ? 'failed' : (call.status ?? before?.status ?? 'pending'),
      locations: call.locations?.map(({ path, line }) => ({ path, line: line ?? null })) ?? before?.locations ?? [],
      ...(refused ? { refused } : before?.refused ? { refused: before.refused } : {}),
    };
    // A refusal sticks: the agent's later update cannot turn it into a success.
    if (before?.refused) view.status = 'failed';
    this.toolCalls.set(call.toolCallId, view);
    this.emit({ type: 'tool_call', tool_call: view });
  }

  propose(proposal: PendingProposal): void {
    this.proposals.push(proposal);
    if (proposal.id) this.emit({ type: 'proposal', id: proposal.id, tool: proposal.tool, title: proposal.title });
  }

  text(): string {
    return this.chunks.join('').trim();
  }

  blocks(): AgentBlocks {
    return { acp: { tool_calls: [...this.toolCalls.values()], plan: this.plan } };
  }
}
