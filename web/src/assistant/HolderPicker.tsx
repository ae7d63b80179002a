// Who holds a new conversation: the built-in assistant or a configured ACP
// agent. One that cannot start is listed disabled, with the sentence why.
import type { Agent, AssistantStatus } from '../api/types';

/** The built-in assistant's value in the picker. */
export const BUILT_IN = '';

interface Props {
  status: AssistantStatus | undefined;
  agents: Agent[];
  value: string;
  onChange: (value: string) => void;
}

export function HolderPicker({ status, agents, value, onChange }: Props) {
  return (
    <label className="holder-picker">
      <span className="visually-hidden">Conversation with</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={BUILT_IN} disabled={!status?.configured} title={status?.configured ? '' : status?.sentence}>
          {builtInTitle(status)}
          {status && !status.configured ? ` — ${status.sentence}` : ''}
        </option>
        {agents.map((agent) => (
          <option key={agent.name} value={agent.name} disabled={!agent.available} title={agent.sentence}>
            {agent.title}
            {agent.available ? '' : ` — ${agent.sentence}`}
          </option>
        ))}
      </select>
    </label>
  );
}

export function builtInTitle(status: AssistantStatus | undefined): string {
  return status?.model ? `Built-in (${status.model})` : 'Built-in assistant';
}
