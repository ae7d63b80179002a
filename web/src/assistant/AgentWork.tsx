// What an answer did, streamed or stored: an agent's plan, and one line per
// tool call (ToolCallLine).
import type { PlanEntry, ToolCall } from '../../../src/wire/agent-work';
import { statusWord, ToolCallLine } from './ToolCallLine';

export function AgentWork({ toolCalls = [], plan = [] }: { toolCalls?: ToolCall[] | undefined; plan?: PlanEntry[] | undefined }) {
  if (toolCalls.length === 0 && plan.length === 0) return null;
  return (
    <div className="agent-work">
      {plan.length > 0 && (
        <ol className="plan" aria-label="Plan">
          {plan.map((entry, i) => (
            <li key={i} className={entry.status}>
              <span className="visually-hidden">{statusWord(entry.status)}: </span>
              {entry.content}
            </li>
          ))}
        </ol>
      )}
      {toolCalls.length > 0 && (
        <ul className="tool-calls" aria-label="Tool calls">
          {toolCalls.map((call) => (
            <ToolCallLine key={call.id} call={call} />
          ))}
        </ul>
      )}
    </div>
  );
}
