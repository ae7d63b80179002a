// What the operator does with the document on the server, as mutations:
// Save (with the revision the text was typed on: when someone saved since,
// the server refuses, nothing is overwritten, and the merge opens; with the
// optional message typed beside it, cleared once saved), Deploy
// of the saved revision and Rollback in the chosen environment. Each says
// what it did in the notice line, and the lists it changed are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { runTool } from '../api/client';
import { queryKeys, readAgain } from '../api/queryKeys';
import type { RevisionView } from '../../../src/wire/document';
import { openedRequest, RequestOpened } from '../change-requests/opened';
import type { Permission } from '../ui/permission';
import type { Notices } from './notice';
import type { CodeMirrorHandle } from './useCodeMirror';
import type { EditorDocument } from './useEditorDocument';

/** What a save, a deploy or a rollback changes elsewhere on screen. */
const CHANGED = [queryKeys.documents(), queryKeys.deployments(), queryKeys.project()];

interface Options {
  project: string;
  path: string;
  environment: string | undefined;
  mayWrite: Permission;
  doc: EditorDocument;
  editor: CodeMirrorHandle;
  notice: Notices;
  /** Someone saved since the text's base: their revision, for the merge. */
  onConflict(theirs: RevisionView, base: number | null): void;
}

export function useDocumentActions({ project, path, environment, mayWrite, doc, editor, notice, onConflict }: Options) {
  const queries = useQueryClient();
  const refresh = () => readAgain(queries, CHANGED);
  /** The save's message, as typed beside Save; kept when a save fails, so a retry carries it. */
  const [message, setMessage] = useState('');

  const save = useMutation({
    mutationFn: async ({ text, base, message }: { text: string; base: number | null; message: string }) => {
      const written = await runTool('write_document', {
        project,
        path,
        text,
        ...(base === null ? {} : { base_revision: base }),
        ...(message ? { message } : {}),
      });
      return runTool('read_document', { project, path, revision: written.revision });
    },
    onMutate: () => notice.clear(),
    onSuccess: (revision, sent) => {
      doc.hold(revision, editor.text());
      editor.clearAgentMarks();
      // A message typed while the save ran stays for the next one.
      setMessage((now) => (now.trim() === sent.message ? '' : now));
      notice.say(`Saved r${revision.revision}${sent.message ? ` with the message “${sent.message}”` : ''}.`);
    },
    onError: async (error, { base }) => {
      const theirs = await runTool('read_document', { project, path }).catch(() => null);
      if (theirs && theirs.revision !== base) onConflict(theirs, base);
      else notice.fail(error);
    },
    onSettled: refresh,
  });

  const deploy = useMutation({
    mutationFn: ({ revision, environment, reason }: { revision: number; environment: string; reason: string | null }) =>
      runTool('deploy', { project, environment, path, revision, ...(reason ? { reason } : {}) }),
    onMutate: () => notice.clear(),
    onSuccess: (done, { revision, environment }) => {
      // On an environment that requires two approvals, the deploy opened a change request instead.
      const request = openedRequest(done);
      notice.say(request ? <RequestOpened request={request} /> : `Deployed r${revision} to ${environment} (deployment #${done.deployment}).`);
    },
    onError: (error) => notice.fail(error),
    onSettled: refresh,
  });

  const rollback = useMutation({
    mutationFn: ({ environment, reason }: { environment: string; reason: string | null }) =>
      runTool('rollback', { project, environment, path, ...(reason ? { reason } : {}) }),
    onMutate: () => notice.clear(),
    onSuccess: (done, { environment }) => {
      const request = openedRequest(done);
      notice.say(request ? <RequestOpened request={request} /> : `Rolled back ${environment} to r${done.revision}.`);
    },
    onError: (error) => notice.fail(error),
    onSettled: refresh,
  });

  const busy = save.isPending || deploy.isPending || rollback.isPending;

  return {
    busy,
    message,
    setMessage,
    /** Save, from the button or Ctrl+S: a refusal or "nothing to save" is said, never silent. */
    save() {
      if (busy) return;
      if (!mayWrite.allowed) return mayWrite.reason && notice.fail(`Not saved: ${mayWrite.reason}.`);
      if (!doc.dirty && doc.saved) return notice.say(`Nothing to save: r${doc.saved.revision} is saved.`);
      save.mutate({ text: editor.text(), base: doc.base, message: message.trim() });
    },
    /** `reason`: why, for the approvers of the change request it opens (null where it runs at once). */
    deploy(revision: number, reason: string | null) {
      if (environment) deploy.mutate({ revision, environment, reason });
    },
    /** `reason`: as for a deploy. */
    rollback(reason: string | null) {
      if (environment) rollback.mutate({ environment, reason });
    },
  };
}
