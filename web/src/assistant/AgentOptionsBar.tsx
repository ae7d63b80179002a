// The conversation header's agent options: its mode and config options
// (model, reasoning effort, …) as its session offers them, changeable by the
// operator; a value that would let it act without asking is shown disabled,
// with the sentence why.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AgentOptionValue } from '../../../src/wire/agent-options';
import type { ThreadResponse } from '../../../src/wire/thread';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';

export function AgentOptionsBar({ thread }: { thread: ThreadResponse }) {
  const queries = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const offered = thread.agent_options;
  if (!offered || (!offered.mode && offered.options.length === 0)) return null;
  const choose = async (choice: { mode: string } | { option: string; value: string | boolean }) => {
    setError(null);
    try {
      await api('PUT', `/api/v1/assistant/threads/${thread.id}/agent-options`, choice);
      await queries.invalidateQueries({ queryKey: queryKeys.threads() });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <div className="agent-options small" aria-label="Agent options">
      {offered.mode && (
        <OptionSelect label="Mode" current={offered.mode.current} values={offered.mode.values} onChoose={(value) => void choose({ mode: String(value) })} />
      )}
      {offered.options.map((option) => (
        <OptionSelect
          key={option.id}
          label={option.name}
          current={option.current}
          values={option.values}
          onChoose={(value) => void choose({ option: option.id, value })}
        />
      ))}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}

function OptionSelect({ label, current, values, onChoose }: { label: string; current: string | boolean; values: AgentOptionValue[]; onChoose: (value: string | boolean) => void }) {
  // Booleans go through the select as text and come back as what they were.
  const byKey = new Map(values.map((v) => [String(v.value), v.value]));
  return (
    <label>
      {label}{' '}
      <select value={String(current)} onChange={(e) => onChoose(byKey.get(e.target.value) ?? e.target.value)}>
        {values.map((v) => (
          <option key={String(v.value)} value={String(v.value)} disabled={v.refused !== null} title={v.refused ?? v.description ?? undefined}>
            {v.name}
            {v.refused ? ' (refused: it would skip approvals)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
