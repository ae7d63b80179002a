// What an agent did for an answer, streamed or stored: its plan, and one
// line per tool call (kind, title, where, status; a refused call says why).
import type { PlanEntry, ToolCall } from '../api/types';

const STATUS: Record<string, string> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed' };

export function AgentWork({ toolCalls = [], plan = [] }: { toolCalls?: ToolCall[] | undefined; plan?: PlanEntry[] | undefined }) {
  if (toolCalls.length === 0 && plan.length === 0) return null;
  return (
    <div className="agent-work">
      {plan.length > 0 && (
        <ol className="plan" aria-label="Plan">
          {plan.map((entry, i) => (
            <li key={i} className={entry.status}>
              <span className="visually-hidden">{STATUS[entry.status] ?? entry.status}: </span>
              {entry.content}
            </li>
          ))}
        </ol>
      )}
      {toolCalls.length > 0 && (
        <ul className="tool-calls" aria-label="Tool calls">
          {toolCalls.map((call) => (
            <li key={call.id} className={`tool-call ${call.refused ? 'refused' : call.status}`}>
              <span className="kind">{call.kind}</span>
              <span className="title">
                {call.title}
                {call.locations.length > 0 && (
                  <span className="muted"> · {call.locations.map((l) => (l.line ? `${l.path}:${l.line}` : l.path)).join(', ')}</span>
                )}
              </span>
              <span className="status">{call.refused ? 'refused' : (STATUS[call.status] ?? call.status)}</span>
              {call.refused && <span className="why">{call.refused}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
