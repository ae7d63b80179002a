// Live progress of a running turn, for `GET …/threads/{id}/events` (SSE):
// what a turn does as it happens, agent and built-in turns alike. In-process:
// the events of a turn reach the listeners of the server that runs it.
import { EventEmitter } from 'node:events';

export interface ToolCallView {
  id: string;
  title: string;
  kind: string;
  status: string;
  locations: { path: string; line?: number | null }[];
  /** Why Aion refused it, when it did. */
  refused?: string;
}

export interface PlanEntryView {
  content: string;
  priority: string;
  status: string;
}

/** What an agent answer keeps in its message's `blocks`, beside the text: what the thread view shows of it. */
export interface AgentBlocks {
  acp: { tool_calls: ToolCallView[]; plan: PlanEntryView[] };
}

export type TurnEvent =
  | { type: 'started' }
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; tool_call: ToolCallView }
  | { type: 'plan'; entries: PlanEntryView[] }
  | { type: 'proposal'; id: string; tool: string; title: string }
  | { type: 'ended'; stop_reason: string | null; error?: string };

export class TurnEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit(threadId: string, event: TurnEvent): void {
    this.emitter.emit(threadId, event);
  }

  /** Calls `listener` with each event of the thread's turns until the returned function is called. */
  listen(threadId: string, listener: (event: TurnEvent) => void): () => void {
    this.emitter.on(threadId, listener);
    return () => this.emitter.off(threadId, listener);
  }
}
