// `/projects/{p}/audit`: who ran what, newest first; filter by operator and
// tool (on the server), outcome and via (on the loaded rows); "Load more".
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { runTool } from '../api/client';
import type { AuditRecord } from '../api/types';
import { useConcepts } from '../screen';
import { shortTime } from '../ui/time';
import { Failure } from './Failure';

const PAGE = 50;
const OUTCOMES = ['', 'ok', 'error', 'refused'];
const VIAS = ['', 'console', 'assistant', 'mcp', 'rest'];

export function AuditPage({ params }: { params: { project: string } }) {
  useConcepts('Project', 'Role');
  const { project } = params;
  const [operator, setOperator] = useState('');
  const [tool, setTool] = useState('');
  const [outcome, setOutcome] = useState('');
  const [via, setVia] = useState('');
  const pages = useInfiniteQuery({
    queryKey: ['audit', project, operator, tool],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      runTool<{ entries: AuditRecord[] }>('read_audit', {
        project,
        limit: PAGE,
        ...(operator ? { operator } : {}),
        ...(tool ? { tool } : {}),
        ...(pageParam ? { before: pageParam } : {}),
      }).then((r) => r.entries),
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1]?.id : undefined),
  });
  const rows = (pages.data?.pages.flat() ?? []).filter((r) => (!outcome || r.outcome === outcome) && (!via || r.via === via));
  return (
    <section aria-labelledby="title">
      <h1 id="title">Audit</h1>
      <div className="filters">
        <label>
          Operator <input value={operator} onChange={(e) => setOperator(e.target.value.trim())} placeholder="any" />
        </label>
        <label>
          Tool <input value={tool} onChange={(e) => setTool(e.target.value.trim())} placeholder="any" />
        </label>
        <label>
          Outcome
          <select value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Via
          <select value={via} onChange={(e) => setVia(e.target.value)}>
            {VIAS.map((v) => (
              <option key={v} value={v}>
                {v || 'any'}
              </option>
            ))}
          </select>
        </label>
      </div>
      {pages.error && <Failure error={pages.error} />}
      <table className="grid audit">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Operator</th>
            <th scope="col">Via</th>
            <th scope="col">Tool</th>
            <th scope="col">Where</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{shortTime(r.at)}</td>
              <td>{r.operator ?? '—'}</td>
              <td>{r.via}</td>
              <td>
                <code>{r.tool}</code>
              </td>
              <td>{r.environment ?? ''}</td>
              <td className={`outcome ${r.outcome}`}>
                {r.outcome}
                {r.error && <span className="muted"> · {r.error}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.hasNextPage && (
        <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          Load more
        </button>
      )}
    </section>
  );
}
