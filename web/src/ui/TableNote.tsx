// A table's one-row sentence in place of its rows: "Loading…" while they are
// read, the page's own sentence when there are none, nothing once they show.
import type { ReactNode } from 'react';

export function TableNote({ columns, loading, empty, children }: { columns: number; loading: boolean; empty: boolean; children: ReactNode }) {
  if (!loading && !empty) return null;
  return (
    <tr>
      <td colSpan={columns} className="muted">
        {loading ? 'Loading…' : children}
      </td>
    </tr>
  );
}
