// `/projects/{p}/documents/{path}/history`: a document's revisions, the diff
// of any two (picked in the table, kept in the address as ?from=&to=), and
// Restore, which saves an old revision as a new one. Those who may not write
// read the same page with Restore disabled and a sentence saying why.
import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useDocuments, useRevisions, useRevisionText } from '../api/queries';
import { Failure } from '../pages/Failure';
import { useConcepts } from '../screen';
import { useScope } from '../scope';
import { LineDiff } from '../ui/LineDiff';
import { usePermission } from '../ui/permission';
import { editorHref } from './links';
import { RestoreDialog } from './RestoreDialog';
import { RevisionTable } from './RevisionTable';
import './history.css';

const revisionParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

export default function HistoryPage({ project, path }: { project: string; path: string }) {
  useConcepts('Document', 'Revision');
  const environment = useScope().environment;
  const history = useRevisions(project, path);
  const live = useDocuments(project).data?.find((d) => d.path === path)?.live ?? {};
  const mayRestore = usePermission(project, environment, 'write_document');
  const [search, setSearch] = useSearchParams();
  const [restoring, setRestoring] = useState<number | null>(null);
  const [restored, setRestored] = useState('');

  const current = history.data?.current_revision;
  const to = revisionParam(search.get('to')) ?? current;
  const from = revisionParam(search.get('from')) ?? (to !== undefined && to > 1 ? to - 1 : to);
  const fromText = useRevisionText(project, path, from);
  const toText = useRevisionText(project, path, to);
  const pick = (pair: { from: number; to: number }) => setSearch({ from: String(pair.from), to: String(pair.to) }, { replace: true });

  return (
    <section className="history" aria-labelledby="title">
      <header className="history-head">
        <h1 id="title">History of {path}</h1>
        {current !== undefined && <span className="muted small">r{current} is current</span>}
        <span className="spacer" />
        <Link href={editorHref(project, path, environment)}>Open in the editor</Link>
      </header>
      {!mayRestore.allowed && mayRestore.reason && (
        <p className="muted read-only-note">You can read this history but not restore a revision: {mayRestore.reason}.</p>
      )}
      {restored && (
        <p role="status" className="ok">
          {restored}
        </p>
      )}
      {history.error && <Failure error={history.error} />}
      {history.data && current !== undefined && from !== undefined && to !== undefined && (
        <>
          <RevisionTable
            revisions={history.data.revisions}
            current={current}
            live={live}
            from={from}
            to={to}
            onPick={pick}
            mayRestore={mayRestore}
            onRestore={(revision) => setRestoring(revision)}
          />
          <h2 id="diff-title">
            Diff r{from} → r{to}
          </h2>
          {fromText.error || toText.error ? (
            <Failure error={fromText.error ?? toText.error} />
          ) : fromText.data === undefined || toText.data === undefined ? (
            <p className="muted small">Reading the revisions…</p>
          ) : (
            <LineDiff before={fromText.data} after={toText.data} label={`Changes to ${path} from r${from} to r${to}`} />
          )}
          {restoring !== null && (
            <RestoreDialog
              project={project}
              path={path}
              revision={restoring}
              current={current}
              onClose={() => setRestoring(null)}
              onRestored={(revision) => {
                setRestored(`Restored r${restoring} as r${revision}.`);
                setRestoring(null);
                pick({ from: current, to: revision });
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
