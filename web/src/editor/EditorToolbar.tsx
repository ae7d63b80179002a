// The editor's toolbar, three groups that wrap as wholes: what the document
// is (its words wrap too), how to view it, and what to do with it.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { RevisionView } from '../../../src/wire/document';
import { historyHref } from '../history/links';
import type { DiffMode } from './useDiffView';
import type { Elsewhere } from './useSavedElsewhere';

interface Props {
  project: string;
  path: string;
  saved: RevisionView | null;
  dirty: boolean;
  /** Where the document is live: environment → revision. */
  live: Record<string, number>;
  protectedHere: boolean;
  liveRevision: number | undefined;
  elsewhere: Elsewhere | null;
  diff: DiffMode;
  onDiff: (mode: DiffMode) => void;
  /** The actions: Save, Discard, Deploy, Rollback. */
  children: ReactNode;
}

export function EditorToolbar({ project, path, saved, dirty, live, protectedHere, liveRevision, elsewhere, diff, onDiff, children }: Props) {
  const where = Object.entries(live)
    .map(([env, rev]) => `${env} r${rev}`)
    .join(', ');
  return (
    <div className="toolbar">
      <div className="toolbar-title">
        <h1 id="title">
          {path}
          {dirty && <span className="unsaved"> • unsaved</span>}
        </h1>
        <span className="muted small">
          {saved ? `r${saved.revision}` : 'new'}
          {where ? ` · live in ${where}` : ' · not live anywhere'}
        </span>
        {protectedHere && <span className="chip protected">protected</span>}
      </div>
      <div className="toolbar-view">
        <label className="visually-hidden" htmlFor="diff-mode">
          Diff
        </label>
        <select id="diff-mode" value={diff} onChange={(e) => onDiff(e.target.value as DiffMode)}>
          <option value="off">Diff: off</option>
          <option value="saved">Diff: saved{saved ? ` r${saved.revision}` : ''}</option>
          <option value="live" disabled={liveRevision === undefined}>
            Diff: live{liveRevision === undefined ? '' : ` r${liveRevision}`}
          </option>
          {elsewhere && <option value="elsewhere">{elsewhere.shown ? `Diff: before r${elsewhere.theirs.revision}` : `Diff: r${elsewhere.theirs.revision}`}</option>}
        </select>
        <Link href={historyHref(project, path)}>History</Link>
      </div>
      <div className="toolbar-actions">{children}</div>
    </div>
  );
}
