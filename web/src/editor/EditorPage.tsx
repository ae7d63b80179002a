// `/projects/{p}/documents/{path}`: the editor. YAML with the checker's
// diagnostics for the chosen environment, all listed; diffs against the
// saved and the live revision; Save with base_revision, where a conflict
// opens a three-way merge; Discard; Deploy (asking on a protected
// environment, disabled with the checker's reason); Rollback (confirmed). A
// read-only editor, with the sentence why, for those who may not write.
// This file puts the parts together; each hook and component has one job.
import { useEffect, useId, useRef } from 'react';
import { useDocuments, useProject } from '../api/queries';
import type { RevisionView } from '../../../src/wire/document';
import { useScope } from '../scope';
import { useConcepts } from '../screen';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { deployBlock } from './deployBlock';
import { EditorToolbar } from './EditorToolbar';
import { EnvironmentActions } from './EnvironmentActions';
import { MergePanel } from './MergePanel';
import { NoticeLine, useNotice } from './notice';
import { ProblemsStrip } from './ProblemsStrip';
import { ReadOnlyNote } from './ReadOnlyNote';
import { SavedElsewhere } from './SavedElsewhere';
import { SaveMessage } from './SaveMessage';
import { useChecks } from './useChecks';
import { useCodeMirror } from './useCodeMirror';
import { useDiffView } from './useDiffView';
import { useDocumentActions } from './useDocumentActions';
import { useEditorDocument } from './useEditorDocument';
import { useMerge } from './useMerge';
import { usePageKeys } from './usePageKeys';
import { useSavedElsewhere } from './useSavedElsewhere';
import './editor.css';

/** One editor per open document: all its state starts afresh with another document. */
export default function EditorRoute({ project, path }: { project: string; path: string }) {
  const decoded = decodeURIComponent(path);
  return <EditorPage key={`${project}/${decoded}`} project={project} path={decoded} />;
}

function EditorPage({ project, path }: { project: string; path: string }) {
  useConcepts('Document', 'Revision', 'Check', 'Deployment');
  const environment = useScope().environment;
  const here = useProject(project).data?.environments.find((e) => e.name === environment);
  const listing = useDocuments(project).data?.find((d) => d.path === path);
  const liveRevision = environment ? listing?.live[environment] : undefined;
  const mayWrite = usePermission(project, environment, 'write_document');
  const mayDeploy = usePermission(project, environment, 'deploy');
  const mayRollback = usePermission(project, environment, 'rollback');
  const readOnlyId = useId();
  const notice = useNotice();

  const doc = useEditorDocument(project, path);
  const checks = useChecks(project, path, environment);
  const host = useRef<HTMLDivElement>(null);
  const editor = useCodeMirror(host, {
    path,
    initial: doc.initial,
    // Typed text is never dropped while the operator's permissions load (under load, seconds): it stays as the draft,
    // and the editor turns read-only, saying why, once they say no.
    writable: mayWrite.allowed || mayWrite.pending === true,
    readOnlyWhy: mayWrite.reason ? readOnlyId : null,
    check: checks.check,
    onOpen: doc.onOpen,
    onEdit: doc.onEdit,
    keepNow: doc.keepNow,
  });
  // Checked at once as it opens, and again for another environment.
  useEffect(() => editor.relint(), [editor, environment]);

  /** The editor holds `revision` as saved, `text` in the buffer (one edit: Ctrl+Z undoes it). */
  const show = (revision: RevisionView, text: string) => {
    doc.hold(revision, text);
    editor.replace(text);
  };
  const merge = useMerge({ project, path, editor, notice, known: doc, show });
  const savedElsewhere = useSavedElsewhere({ project, path, newest: listing?.revision, base: doc.base, dirty: doc.dirty, merging: merge.asked !== null, editor, notice, show });
  const diff = useDiffView({ project, path, editor, saved: doc.saved, liveRevision, elsewhere: savedElsewhere.elsewhere });
  const actions = useDocumentActions({ project, path, environment, mayWrite, doc, editor, notice, onConflict: merge.open });
  usePageKeys({ save: actions.save, find: editor.openSearch });

  function discard() {
    if (doc.saved) show(doc.saved, doc.saved.text);
    else editor.replace('');
    notice.say('Discarded your changes; Ctrl+Z in the editor brings them back.');
    editor.focus();
  }

  if (doc.error) return <p role="alert" className="error">{doc.error}</p>;
  const elsewhere = merge.asked ? null : savedElsewhere.elsewhere;
  const savedProblems = doc.saved && !doc.dirty ? checks.diagnosticsOf(doc.saved.text) : null;
  return (
    <section className="editor-page" aria-labelledby="title">
      <EditorToolbar
        project={project}
        path={path}
        saved={doc.saved}
        dirty={doc.dirty}
        live={listing?.live ?? {}}
        protectedHere={here?.protected ?? false}
        liveRevision={liveRevision}
        elsewhere={savedElsewhere.elsewhere}
        diff={diff.mode}
        onDiff={diff.pick}
      >
        {doc.dirty && (
          <button type="button" onClick={discard} title="Put the saved text back (Ctrl+Z undoes it)">
            Discard
          </button>
        )}
        {mayWrite.allowed && (doc.dirty || doc.saved === null) && (
          <SaveMessage value={actions.message} onChange={actions.setMessage} onSave={actions.save} disabled={actions.busy} />
        )}
        <ActionButton primary permission={mayWrite} disabled={actions.busy || (!doc.dirty && doc.saved !== null)} onClick={actions.save} title="Save (Ctrl+S)">
          Save
        </ActionButton>
        <EnvironmentActions
          project={project}
          path={path}
          environment={environment}
          protectedHere={here?.protected}
          approvalsHere={here?.approvals_required ?? 1}
          revision={doc.saved?.revision}
          deployBlocked={deployBlock({ saved: doc.saved, dirty: doc.dirty, environment, diagnostics: savedProblems })}
          liveRevision={liveRevision}
          mayDeploy={mayDeploy}
          mayRollback={mayRollback}
          busy={actions.busy}
          onDeploy={actions.deploy}
          onRollback={actions.rollback}
        />
      </EditorToolbar>
      {mayWrite.reason && <ReadOnlyNote id={readOnlyId} reason={mayWrite.reason} />}
      <NoticeLine notice={notice.notice} />
      {elsewhere && (
        <SavedElsewhere
          theirs={elsewhere.theirs}
          shown={elsewhere.shown}
          diffing={diff.mode === 'elsewhere'}
          onDiff={() => diff.pick(diff.mode === 'elsewhere' ? 'off' : 'elsewhere')}
          onMerge={() => merge.open(elsewhere.theirs, doc.base)}
          onReload={savedElsewhere.reload}
          onDismiss={savedElsewhere.dismiss}
        />
      )}
      {merge.asked && (
        <MergePanel
          key={merge.asked.round}
          theirs={merge.asked.theirs}
          base={merge.asked.base}
          baseText={merge.baseText}
          mine={merge.asked.mine}
          onMerge={merge.merge}
          onTakeTheirs={merge.takeTheirs}
        />
      )}
      <div className="editor-host" ref={host} />
      <ProblemsStrip
        diagnostics={checks.diagnostics}
        environment={environment}
        failure={checks.failure}
        blockDeploy={(savedProblems?.length ?? 0) > 0}
        onGoTo={editor.goTo}
      />
    </section>
  );
}
