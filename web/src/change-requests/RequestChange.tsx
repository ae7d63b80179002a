// What a change request would change, as it stood when asked: a document's
// revision against what was live (the diff read from those two revisions,
// which never change), a secret's name and version (never its value), or the
// environment's protection.
import type { ChangeRequestResponse, Change } from '../../../src/wire/change-request';
import { useRevisionText } from '../api/queries';
import { ProtectionChange } from '../confirm/changes';
import { LineDiff } from '../ui/LineDiff';

type DocumentChange = Extract<Change, { kind: 'document' }>;

export function RequestChange({ request }: { request: ChangeRequestResponse }) {
  const { change, project, environment } = request;
  switch (change.kind) {
    case 'document':
      return <DocumentDiff change={change} project={project} environment={environment} />;
    case 'secret':
      return (
        <p className="change-summary">
          {change.action === 'delete' ? 'Deletes' : 'Sets'} <code>{change.name}</code> in {environment}
          {change.version === null
            ? change.action === 'set' && ' (v1: it was not set)'
            : change.action === 'set'
              ? ` (v${change.version + 1} replaces v${change.version})`
              : ` (v${change.version})`}
          . The value is never shown.
        </p>
      );
    case 'protection': {
      const moves = <T,>(setting: { from: T; to: T }) => (setting.from === setting.to ? undefined : setting.to);
      return <ProtectionChange environment={environment} protect={moves(change.protected)} approvals={moves(change.approvals_required)} />;
    }
  }
}

function DocumentDiff({ change, project, environment }: { change: DocumentChange; project: string; environment: string }) {
  const { path, live, revision, rollback } = change;
  const before = useRevisionText(project, path, live?.revision);
  const after = useRevisionText(project, path, revision);
  const failure = before.error ?? after.error;
  return (
    <div className="change">
      <p className="change-summary">
        {live ? (
          <>
            {path} <strong>r{live.revision}</strong> was live in {environment}; {rollback ? 'rollback brings back' : 'deploying puts live'} <strong>r{revision}</strong>.
          </>
        ) : (
          <>
            {path} was not live in {environment}; deploying puts <strong>r{revision}</strong> live.
          </>
        )}
      </p>
      {failure ? (
        <p className="error small">Could not read the diff: {failure.message}</p>
      ) : after.data === undefined || (live && before.data === undefined) ? (
        <p className="muted small">Reading the diff…</p>
      ) : (
        <LineDiff before={before.data ?? ''} after={after.data} label={`Changes to ${path} in ${environment}`} />
      )}
    </div>
  );
}
