// The answer of one agent turn, built from its session/updates as they come:
// message chunks become its text (a tool call or plan between two runs of
// chunks ends a text block: the blocks are joined with a blank line, as the
// built-in's are), tool calls (upserted by toolCallId, from
// updates and permission requests alike, as Zed does) and the plan are shown
// on it, and the writes the agent calls through /mcp are its proposals. Its
// text is cut at the configured size and its tool calls and plan are bounded,
// so an agent that talks without end costs neither memory nor the store.
// Credentials it says are redacted in what is streamed (storing redacts the rest).
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentBlocks } from '../turns/events.js';
import type { PlanEntry, ToolCall } from '../wire/agent-work.js';
import type { TurnEvent } from '../wire/turn-event.js';
import { CredentialFilter, redactCredentials } from '../assistant/redaction.js';
import type { EarlierUpdate } from './permissions.js';


const MAX_TOOL_CALLS = 500;
const MAX_PLAN_ENTRIES = 100;
const MAX_LABEL_CHARS = 500;

export class AgentAnswer {
  private readonly chunks: string[] = [];
  private bytes = 0;
  private cut = false;
  /** Whether a tool call or plan came since the last text: the next text starts a new block. */
  private blockEnded = false;
  /** What of the text the stream has not shown yet: a credential may be split between chunks. */
  private readonly shown = new CredentialFilter();
  private readonly toolCalls = new Map<string, ToolCall>();
  /** What each tool call's first update said, kept for the permission rule, never stored. */
  private readonly firstUpdates = new Map<string, EarlierUpdate>();
  /** Permission requests waiting for their call's first update, by its id. */
  private readonly awaitingFirst = new Map<string, Set<() => void>>();
  private plan: PlanEntry[] = [];

  constructor(
    private readonly send: (event: TurnEvent) => void,
    private readonly maxBytes: number,
  ) {}

  /** Streams text as far as it is safe to; any other event first shows the text held back, so the order stays. */
  private emit(event: TurnEvent): void {
    if (event.type === 'text') return this.showText(this.shown.push(event.delta));
    this.showText(this.shown.release());
    this.send(event);
  }

  private showText(delta: string): void {
    if (delta !== '') this.send({ type: 'text', delta });
  }

  apply(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') this.addText(`${this.blockEnded ? this.separator() : ''}${update.content.text}`);
        this.blockEnded = false;
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.upsertToolCall(update, undefined, 'update');
        return;
      case 'plan':
        this.blockEnded = true;
        this.plan = update.entries
          .slice(0, MAX_PLAN_ENTRIES)
          .map(({ content, priority, status }) => ({ content: redactCredentials(content.slice(0, MAX_LABEL_CHARS)), priority, status }));
        this.emit({ type: 'plan', entries: this.plan });
        return;
      default:
      // Thoughts, commands, modes, usage: not part of the answer.
    }
  }

  /** Keeps text until the answer reaches its size, then says it was cut and keeps no more. */
  private addText(text: string): void {
    if (this.cut) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.maxBytes) {
      this.bytes += size;
      this.chunks.push(text);
      this.emit({ type: 'text', delta: text });
      return;
    }
    this.cut = true;
    const note = `\n\n[The agent's answer was cut at ${this.maxBytes} bytes (AION_AGENT_ANSWER_MAX).]`;
    this.chunks.push(note);
    this.emit({ type: 'text', delta: note });
  }

  /** A sentence of Aion's own at the end of the answer. */
  note(sentence: string): void {
    this.addText(`${this.separator()}${sentence}`);
  }

  /** What makes a blank line between the text so far and a new block (nothing before the first). */
  private separator(): string {
    const last = this.chunks.at(-1) ?? '';
    if (last === '' || last.endsWith('\n\n')) return '';
    return last.endsWith('\n') ? '\n' : '\n\n';
  }

  /** The kind an earlier update gave the tool call, if any. */
  kindOf(toolCallId: string): acp.ToolKind | null {
    return (this.toolCalls.get(toolCallId)?.kind as acp.ToolKind | undefined) ?? null;
  }

  /** What the tool call's first update said, if one came before. */
  firstUpdateOf(toolCallId: string): EarlierUpdate | null {
    return this.firstUpdates.get(toolCallId) ?? null;
  }

  /** The tool call's first update, waited for up to MS when none came yet (null when none comes). */
  async firstUpdateWithin(toolCallId: string, ms: number): Promise<EarlierUpdate | null> {
    if (!this.firstUpdates.has(toolCallId)) {
      await new Promise<void>((resolve) => {
        const waiting = this.awaitingFirst.get(toolCallId) ?? new Set<() => void>();
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          if (waiting.size === 0) this.awaitingFirst.delete(toolCallId);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiting.add(done);
        this.awaitingFirst.set(toolCallId, waiting);
      });
    }
    return this.firstUpdateOf(toolCallId);
  }

  /**
   * Shows the tool call as an update or a permission request (`from`) says it
   * is. Only an update counts as the call's first: a request that comes before
   * the call was announced is no announcement of it.
   */
  upsertToolCall(call: acp.ToolCallUpdate, refused?: string, from: 'update' | 'request' = 'request'): void {
    const before = this.toolCalls.get(call.toolCallId);
    this.blockEnded = true;
    if (!before && this.toolCalls.size >= MAX_TOOL_CALLS) return;
    if (from === 'update' && !this.firstUpdates.has(call.toolCallId)) {
      this.firstUpdates.set(call.toolCallId, { title: call.title ?? null, kind: call.kind ?? null, rawInput: call.rawInput ?? null, meta: call._meta ?? null });
      for (const done of [...(this.awaitingFirst.get(call.toolCallId) ?? [])]) done();
    }
    const view: ToolCall = {
      id: call.toolCallId.slice(0, MAX_LABEL_CHARS),
      title: redactCredentials((call.title ?? before?.title ?? call.toolCallId).slice(0, MAX_LABEL_CHARS)),
      kind: call.kind ?? before?.kind ?? 'other',
      status: refused ? 'failed' : (call.status ?? before?.status ?? 'pending'),
      locations: call.locations?.slice(0, 20).map(({ path, line }) => ({ path: path.slice(0, MAX_LABEL_CHARS), line: line ?? null })) ?? before?.locations ?? [],
      ...(refused ? { refused } : before?.refused ? { refused: before.refused } : {}),
    };
    // A refusal sticks: the agent's later update cannot turn it into a success.
    if (before?.refused) view.status = 'failed';
    this.toolCalls.set(call.toolCallId, view);
    this.emit({ type: 'tool_call', tool_call: view });
  }

  /** The answer's text, to be stored: the turn is over, so the stream now shows what it held back. */
  text(): string {
    this.showText(this.shown.release());
    return this.chunks.join('').trim();
  }

  blocks(): AgentBlocks {
    return { acp: { tool_calls: [...this.toolCalls.values()], plan: this.plan } };
  }
}
