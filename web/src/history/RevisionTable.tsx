// A document's revisions, newest first: number, author, time, size, message,
// where each is live; two radio columns pick the pair to diff (arrow keys
// move within a column), and Restore saves an old one as a new revision.
import type { RevisionListing } from '../../../src/wire/document';
import { ActionButton } from '../ui/ActionButton';
import type { Permission } from '../ui/permission';
import { TableBox } from '../ui/TableBox';
import { shortTime } from '../ui/time';

interface Props {
  revisions: RevisionListing[];
  current: number;
  /** The revision live in each environment. */
  live: Record<string, number>;
  from: number;
  to: number;
  onPick: (pair: { from: number; to: number }) => void;
  mayRestore: Permission;
  onRestore: (revision: number) => void;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

export function RevisionTable({ revisions, current, live, from, to, onPick, mayRestore, onRestore }: Props) {
  return (
    <TableBox label="Revisions">
      <table className="grid revisions stacks">
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Revision</th>
            <th scope="col">Author</th>
            <th scope="col">When</th>
            <th scope="col">Size</th>
            <th scope="col">Message</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {revisions.map((r) => {
            const liveIn = Object.entries(live).filter(([, revision]) => revision === r.revision).map(([environment]) => environment);
            return (
              <tr key={r.revision} className={r.revision === from || r.revision === to ? 'picked' : undefined}>
                <td className="pick">
                  <input
                    type="radio"
                    name="diff-from"
                    aria-label={`Diff from r${r.revision}`}
                    checked={r.revision === from}
                    onChange={() => onPick({ from: r.revision, to })}
                  />
                </td>
                <td className="pick">
                  <input
                    type="radio"
                    name="diff-to"
                    aria-label={`Diff to r${r.revision}`}
                    checked={r.revision === to}
                    onChange={() => onPick({ from, to: r.revision })}
                  />
                </td>
                <th scope="row">
                  r{r.revision}
                  {r.revision === current && <span className="chip">current</span>}
                  {liveIn.map((environment) => (
                    <span key={environment} className="chip live">
                      live in {environment}
                    </span>
                  ))}
                </th>
                <td data-label="Author">{r.author ?? '—'}</td>
                <td data-label="When">
                  <time dateTime={r.created_at} title={new Date(r.created_at).toLocaleString()}>
                    {shortTime(r.created_at)}
                  </time>
                </td>
                <td className="number" data-label="Size">{size(r.size)}</td>
                <td className="message-cell" data-label="Message">{r.message ?? <span className="muted">—</span>}</td>
                <td className="actions">
                  {r.revision !== current && (
                    <ActionButton permission={mayRestore} aria-haspopup="dialog" title={`Save r${r.revision}'s text as a new revision`} onClick={() => onRestore(r.revision)}>
                      Restore
                    </ActionButton>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableBox>
  );
}
