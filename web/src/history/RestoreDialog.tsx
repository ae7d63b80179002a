// Restoring a revision saves its text as a new revision on top of the
// current one, with a message (default "restore rN"). It deploys nothing, so
// no environment name is asked; the dialog shows what the new revision
// changes against the current one. There is no restore tool: it is
// write_document with the old text, based on the current revision, so a save
// made meanwhile refuses it instead of being overwritten.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { runTool } from '../api/client';
import { queryKeys, readAgain } from '../api/queryKeys';
import { useRevisionText } from '../api/queries';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { LineDiff } from '../ui/LineDiff';

interface Props {
  project: string;
  path: string;
  revision: number;
  current: number;
  onClose: () => void;
  onRestored: (revision: number) => void;
}

/** What a restore refreshes: the history, the document lists, the open editor's newest revision, the audit. */
const CHANGED = [queryKeys.revisions(), queryKeys.documents(), queryKeys.currentRevision(), queryKeys.audit()];

export function RestoreDialog({ project, path, revision, current, onClose, onRestored }: Props) {
  const [message, setMessage] = useState(`restore r${revision}`);
  const messageId = useId();
  const queries = useQueryClient();
  const restoring = useRevisionText(project, path, revision);
  const currentText = useRevisionText(project, path, current);
  const restore = useMutation({
    mutationFn: (text: string) =>
      runTool('write_document', { project, path, text, base_revision: current, ...(message.trim() ? { message: message.trim() } : {}) }),
    onSuccess: (written) => onRestored(written.revision),
    onSettled: () => readAgain(queries, CHANGED),
  });
  const failure = restoring.error ?? currentText.error ?? restore.error;
  return (
    <ConfirmDialog
      title={`Restore r${revision} of ${path}`}
      open
      names={[]}
      confirmLabel="Restore"
      question={
        <>
          Saves the text of <strong>r{revision}</strong> as a new revision, <strong>r{current + 1}</strong>, on top of r{current}. Nothing is
          deployed.
        </>
      }
      onClose={onClose}
      onConfirm={() => restoring.data !== undefined && !restore.isPending && restore.mutate(restoring.data)}
    >
      <div className="confirm-name">
        <label htmlFor={messageId}>Message</label>
        <input id={messageId} value={message} maxLength={500} onChange={(e) => setMessage(e.target.value)} autoComplete="off" />
      </div>
      {restoring.data === undefined || currentText.data === undefined ? (
        !failure && <p className="muted small">Reading the revisions…</p>
      ) : (
        <LineDiff before={currentText.data} after={restoring.data} label={`What restoring r${revision} changes in ${path}`} />
      )}
      {failure && (
        <p role="alert" className="error small">
          {failure.message}
        </p>
      )}
    </ConfirmDialog>
  );
}
