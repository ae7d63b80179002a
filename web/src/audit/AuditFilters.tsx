// The audit's filters: the reads switch, the tool (picked from the tools the
// project knows, plus other actions seen in the log), operator, environment,
// outcome and a range of days. Each change applies at once.
import { useMembers, useProject, useTools } from '../api/queries';
import type { AuditRecord } from '../../../src/wire/audit';
import type { AuditFilter } from './filters';

const OUTCOMES = ['ok', 'error', 'refused'] as const satisfies readonly AuditRecord['outcome'][];

interface Props {
  project: string;
  filter: AuditFilter;
  /** Actions in the loaded rows that are no tool (a rejected proposal, a token), so they can be picked too. */
  seenActions: string[];
  onChange: (filter: AuditFilter) => void;
}

export function AuditFilters({ project, filter, seenActions, onChange }: Props) {
  const tools = useTools(project, undefined).data ?? [];
  const members = useMembers(project).data ?? [];
  const environments = useProject(project).data?.environments ?? [];
  const set = (patch: Partial<AuditFilter>) => onChange({ ...filter, ...patch });
  const byTag = (tag: 'read' | 'write') => tools.filter((t) => t.tag === tag).map((t) => t.name).sort();
  const reads = byTag('read');
  const others = seenActions.filter((name) => !tools.some((t) => t.name === name));
  const option = (name: string) => (
    <option key={name} value={name}>
      {name}
    </option>
  );

  return (
    <div className="filters audit-filters" role="group" aria-label="Filters">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={filter.reads}
          aria-checked={filter.reads}
          // Hiding reads drops a read tool picked while they showed.
          onChange={(e) => set({ reads: e.target.checked, tool: !e.target.checked && reads.includes(filter.tool) ? '' : filter.tool })}
        />
        Show reads
      </label>
      <label>
        Tool
        <select value={filter.tool} onChange={(e) => set({ tool: e.target.value })}>
          <option value="">any</option>
          <optgroup label="Changes">{byTag('write').map(option)}</optgroup>
          {others.length > 0 && <optgroup label="Other actions">{others.map(option)}</optgroup>}
          {filter.reads && <optgroup label="Reads">{reads.map(option)}</optgroup>}
        </select>
      </label>
      <label>
        Operator
        <select value={filter.operator} onChange={(e) => set({ operator: e.target.value })}>
          <option value="">any</option>
          {members.map((m) => (
            <option key={m.operator} value={m.operator}>
              {m.operator}
            </option>
          ))}
        </select>
      </label>
      <label>
        Environment
        <select value={filter.environment} onChange={(e) => set({ environment: e.target.value })}>
          <option value="">any</option>
          {environments.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Outcome
        <select value={filter.outcome} onChange={(e) => set({ outcome: e.target.value })}>
          <option value="">any</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="date" value={filter.since} max={filter.until || undefined} onChange={(e) => set({ since: e.target.value })} />
      </label>
      <label>
        To
        <input type="date" value={filter.until} min={filter.since || undefined} onChange={(e) => set({ until: e.target.value })} />
      </label>
    </div>
  );
}
