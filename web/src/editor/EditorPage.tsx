// `/projects/{p}/documents/{path}`: the editor. YAML with the checker's
// diagnostics for the chosen environment, diffs against the saved and the
// live revision, Save with base_revision (a conflict loses nothing), Deploy
// (a protected environment asks to type its name), Rollback (confirmed,
// naming the revision that comes back; typing the name where protected).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { runTool, ToolError } from '../api/client';
import { useDocuments, useProject } from '../api/queries';
import type { Diagnostic, Revision } from '../api/types';
import { useConcepts } from '../screen';
import { useScope } from '../scope';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { RollbackChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { ConflictPanel } from './ConflictPanel';
import { DeployDialog } from './DeployDialog';
import { ProblemsStrip } from './ProblemsStrip';
import { keepDraft, readDraft } from './drafts';
import { useCodeMirror } from './useCodeMirror';

type DiffMode = 'off' | 'saved' | 'live';

export default function EditorPage({ project, path: rawPath }: { project: string; path: string }) {
  useConcepts('Document', 'Revision', 'Check', 'Deployment');
  const path = decodeURIComponent(rawPath);
  const environment = useScope().environment;
  const environmentInfo = useProject(project).data?.environments.find((e) => e.name === environment);
  const listing = useDocuments(project).data?.find((d) => d.path === path);
  const queries = useQueryClient();
  const mayWrite = usePermission(project, environment, 'write_document');
  const mayDeploy = usePermission(project, environment, 'deploy');
  const mayRollback = usePermission(project, environment, 'rollback');

  const [saved, setSaved] = useState<Revision | null>(null);
  const [base, setBase] = useState<number | null>(null);
  const [initial, setInitial] = useState<string | null>(null);
  const [loadError, setLoadError] = useState('');
  const [dirty, setDirty] = useState(false);
  const [diagnostics, setDiagnostics] = useState<Diagnostic[] | null>(null);
  const [diffMode, setDiffMode] = useState<DiffMode>('off');
  const [conflict, setConflict] = useState<{ theirs: Revision; mine: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmingRollback, setConfirmingRollback] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const savedRef = useRef<Revision | null>(null);
  savedRef.current = saved;
  const baseRef = useRef<number | null>(null);
  baseRef.current = base;
  const environmentRef = useRef(environment);
  environmentRef.current = environment;

  // Load once per document: the saved revision, and the tab's draft over it.
  useEffect(() => {
    let cancelled = false;
    setInitial(null);
    setConflict(null);
    setNotice(null);
    void runTool<Revision>('read_document', { project, path })
      .then(
        (revision) => revision,
        (error: unknown) => {
          if (error instanceof ToolError && /not found|no such/i.test(error.message)) return null;
          throw error;
        },
      )
      .then((revision) => {
        if (cancelled) return;
        const draft = readDraft(project, path);
        setSaved(revision);
        setBase(draft ? draft.base : (revision?.revision ?? null));
        setDirty(draft !== null && draft.text !== revision?.text);
        setInitial(draft?.text ?? revision?.text ?? '');
      })
      .catch((error: unknown) => !cancelled && setLoadError(error instanceof Error ? error.message : String(error)));
    return () => {
      cancelled = true;
    };
  }, [project, path]);

  const check = useCallback(
    async (text: string) => {
      const env = environmentRef.current;
      if (!env) return [];
      try {
        const result = await runTool<{ diagnostics: Diagnostic[] }>('check_document', { project, environment: env, path, text });
        setDiagnostics(result.diagnostics);
        return result.diagnostics;
      } catch (error) {
        setNotice({ text: error instanceof Error ? error.message : String(error), error: true });
        return [];
      }
    },
    [project, path],
  );

  const onText = useCallback(
    (text: string) => {
      const savedText = savedRef.current?.text;
      const changed = text !== (savedText ?? '');
      setDirty(changed);
      keepDraft(project, path, changed ? { base: baseRef.current, text } : null);
    },
    [project, path],
  );

  const editor = useCodeMirror(host, { path, initial, check, onText });

  useEffect(() => {
    editor.relint();
  }, [environment, editor.view]);

  // A revision saved elsewhere (an accepted proposal, another tab) replaces a
  // buffer with no unsaved edits; unsaved ones stay, and Save shows the conflict.
  const newest = listing?.revision;
  useEffect(() => {
    if (newest === undefined || !saved || newest <= saved.revision || dirty || conflict) return;
    let cancelled = false;
    void runTool<Revision>('read_document', { project, path }).then((revision) => {
      if (cancelled || revision.revision <= (savedRef.current?.revision ?? 0)) return;
      savedRef.current = revision;
      baseRef.current = revision.revision;
      setSaved(revision);
      setBase(revision.revision);
      editor.replace(revision.text);
      setNotice({ text: `Showing r${revision.revision}, saved by ${revision.author ?? 'someone'}.`, error: false });
    });
    return () => {
      cancelled = true;
    };
  }, [newest, saved, dirty, conflict, project, path]); // the editor handle is stable per document

  const liveRevision = environment ? listing?.live[environment] : undefined;
  const live = useQuery({
    queryKey: ['document', project, path, liveRevision],
    queryFn: () => runTool<Revision>('read_document', { project, path, revision: liveRevision }).then((r) => r.text),
    enabled: diffMode === 'live' && liveRevision !== undefined,
    staleTime: Infinity,
  });

  useEffect(() => {
    const original = diffMode === 'saved' ? (saved?.text ?? '') : diffMode === 'live' ? (live.data ?? null) : null;
    editor.showDiff(original);
  }, [diffMode, saved, live.data, editor.view]);

  const refresh = () =>
    Promise.all(['documents', 'deployments', 'project'].map((key) => queries.invalidateQueries({ queryKey: [key] })));

  async function save(onTopOf?: number) {
    if (!mayWrite.allowed || busy || (onTopOf === undefined && !dirty && saved !== null)) return;
    const text = editor.text();
    const baseRevision = onTopOf ?? base;
    setBusy(true);
    setNotice(null);
    try {
      const written = await runTool<{ revision: number }>('write_document', {
        project,
        path,
        text,
        ...(baseRevision === null ? {} : { base_revision: baseRevision }),
      });
      const revision = await runTool<Revision>('read_document', { project, path, revision: written.revision });
      setSaved(revision);
      setBase(revision.revision);
      setConflict(null);
      setDirty(editor.text() !== revision.text);
      keepDraft(project, path, null);
      editor.clearAgentMarks();
      setNotice({ text: `Saved r${revision.revision}.`, error: false });
      await refresh();
    } catch (error) {
      const theirs = await runTool<Revision>('read_document', { project, path }).catch(() => null);
      if (theirs && theirs.revision !== baseRevision) setConflict({ theirs, mine: text });
      else setNotice({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setBusy(false);
    }
  }

  function takeTheirs() {
    if (!conflict) return;
    setSaved(conflict.theirs);
    setBase(conflict.theirs.revision);
    savedRef.current = conflict.theirs;
    baseRef.current = conflict.theirs.revision;
    editor.replace(conflict.theirs.text);
    setConflict(null);
  }

  async function deploy() {
    if (!environment || !saved) return;
    setConfirming(false);
    setBusy(true);
    setNotice(null);
    try {
      const checked = await runTool<{ diagnostics: Diagnostic[] }>('check_document', { project, environment, path, revision: saved.revision });
      if (checked.diagnostics.length > 0) {
        setDiagnostics(checked.diagnostics);
        setNotice({ text: `Not deployed: r${saved.revision} has ${checked.diagnostics.length} problem(s) in ${environment}.`, error: true });
        return;
      }
      const done = await runTool<{ deployment: number }>('deploy', { project, environment, path, revision: saved.revision });
      setNotice({ text: `Deployed r${saved.revision} to ${environment} (deployment #${done.deployment}).`, error: false });
      await refresh();
    } catch (error) {
      setNotice({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setBusy(false);
    }
  }

  async function rollback() {
    if (!environment) return;
    setBusy(true);
    setNotice(null);
    try {
      const done = await runTool<{ revision: number }>('rollback', { project, environment, path });
      setNotice({ text: `Rolled back ${environment} to r${done.revision}.`, error: false });
      await refresh();
    } catch (error) {
      setNotice({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setBusy(false);
    }
  }

  // Ctrl/Cmd+S saves, wherever the focus is on this page.
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const liveHere = environment ? listing?.live[environment] : undefined;
  const where = Object.entries(listing?.live ?? {})
    .map(([env, rev]) => `${env} r${rev}`)
    .join(', ');
  const deployBlocked = dirty ? 'Save first: Deploy puts the saved revision live.' : !saved ? 'Save the document before deploying it.' : '';

  if (loadError) return <p role="alert" className="error">{loadError}</p>;
  return (
    <section className="editor-page" aria-labelledby="title">
      <div className="toolbar">
        <h1 id="title">
          {path}
          {dirty && <span className="unsaved"> • unsaved</span>}
        </h1>
        <span className="muted small">
          {saved ? `r${saved.revision}` : 'new'}
          {where ? ` · live in ${where}` : ' · not live anywhere'}
        </span>
        {environmentInfo?.protected && <span className="chip protected">protected</span>}
        <span className="spacer" />
        <label className="visually-hidden" htmlFor="diff-mode">
          Diff
        </label>
        <select id="diff-mode" value={diffMode} onChange={(e) => setDiffMode(e.target.value as DiffMode)}>
          <option value="off">Diff: off</option>
          <option value="saved">Diff: saved</option>
          <option value="live" disabled={liveRevision === undefined}>
            Diff: live
          </option>
        </select>
        <ActionButton primary permission={mayWrite} disabled={busy || (!dirty && saved !== null)} onClick={() => void save()} title="Save (Ctrl+S)">
          Save
        </ActionButton>
        <ActionButton
          permission={mayDeploy}
          disabled={busy || deployBlocked !== ''}
          title={deployBlocked || `Deploy the saved revision to ${environment ?? ''}`}
          onClick={() => (environmentInfo?.protected ? setConfirming(true) : void deploy())}
        >
          Deploy
        </ActionButton>
        <ActionButton
          permission={mayRollback}
          disabled={busy || liveHere === undefined}
          title={liveHere === undefined ? `Not live in ${environment ?? ''}` : `Put the revision live before r${liveHere} back`}
          onClick={() => setConfirmingRollback(true)}
        >
          Rollback
        </ActionButton>
      </div>
      {notice && (
        <p role={notice.error ? 'alert' : 'status'} className={notice.error ? 'error notice-line' : 'ok notice-line'}>
          {notice.text}
        </p>
      )}
      {conflict && (
        <ConflictPanel
          theirs={conflict.theirs}
          mine={editor.text()}
          busy={busy}
          onTakeTheirs={takeTheirs}
          onSaveMine={() => void save(conflict.theirs.revision)}
        />
      )}
      <div className="editor-host" ref={host} />
      <ProblemsStrip diagnostics={diagnostics} environment={environment} />
      {environment && saved && (
        <DeployDialog
          project={project}
          environment={environment}
          path={path}
          revision={saved.revision}
          open={confirming}
          onClose={() => setConfirming(false)}
          onConfirm={() => void deploy()}
        />
      )}
      {environment && confirmingRollback && (
        <ConfirmDialog
          title={`Roll back ${path} in ${environment}`}
          open
          names={environmentInfo?.protected === false ? [] : [environment]}
          confirmLabel="Rollback"
          question={<>Rollback deploys again the revision of {path} that was live in {environment} before the current one.</>}
          onClose={() => setConfirmingRollback(false)}
          onConfirm={() => {
            setConfirmingRollback(false);
            void rollback();
          }}
        >
          <RollbackChange project={project} environment={environment} path={path} />
        </ConfirmDialog>
      )}
    </section>
  );
}
