// Who holds a new conversation: the built-in assistant or a configured ACP
// agent. One that cannot start is listed disabled, with the sentence why; one
// that runs outside the OS sandbox says so in the list, and the panel warns
// under its header while it is chosen (UnsandboxedWarning).
import type { Agent } from '../../../src/wire/agent';
import type { AssistantStatus } from '../../../src/wire/assistant-status';

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
            {agent.available && !agent.sandboxed ? ' — not sandboxed' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The line under the panel's header while the agent chosen runs outside the OS sandbox. */
export function UnsandboxedWarning({ agents, value }: Pick<Props, 'agents' | 'value'>) {
  const unsandboxed = agents.find((a) => a.name === value && !a.sandboxed);
  if (!unsandboxed) return null;
  return (
    <p className="notice warning" role="note">
      {unsandboxed.title} runs without a sandbox: it can read what the server can
    </p>
  );
}

export function builtInTitle(status: AssistantStatus | undefined): string {
  return status?.model ? `Built-in (${status.model})` : 'Built-in assistant';
}
