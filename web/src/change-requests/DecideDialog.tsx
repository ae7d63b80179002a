// Deciding a change request. Approve is the console's confirmation: what
// runs and what changes, and the environment's name typed. Decline (or, for
// the one who asked, Withdraw) asks for a comment the requester will read.
import { useId, useState } from 'react';
import type { ChangeRequestResponse } from '../../../src/wire/change-request';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { RequestChange } from './RequestChange';
import { requestTitle } from './title';

export type Decision = 'approve' | 'decline';

interface Props {
  request: ChangeRequestResponse;
  decision: Decision;
  /** The requester declining their own request withdraws it. */
  withdrawing: boolean;
  onDecide: (comment: string) => void;
  onClose: () => void;
}

export function DecideDialog({ request, decision, withdrawing, onDecide, onClose }: Props) {
  const [comment, setComment] = useState('');
  const commentId = useId();
  const title = requestTitle(request);
  // Approvals still to come, this one included: the last one runs the change.
  const left = Math.max(1, request.approvals_required - 1 - request.approvals.filter((a) => a.dismissed_because === null).length);
  const last = left === 1;
  if (decision === 'approve') {
    return (
      <ConfirmDialog
        title={`Approve a change to ${request.environment}`}
        open
        names={[request.environment]}
        confirmLabel="Approve"
        question={
          <>
            {last ? (
              <>
                Approving runs <strong>{title}</strong> now, as {request.requested_by} asked it, with your approval in the audit.
              </>
            ) : (
              <>
                Your approval is recorded; <strong>{title}</strong> runs once {left - 1 === 1 ? 'one more operator approves' : `${left - 1} more operators approve`}.
              </>
            )}
          </>
        }
        onClose={onClose}
        onConfirm={() => onDecide(comment.trim())}
      >
        <label htmlFor={commentId}>Comment (optional, shown with your approval)</label>
        <textarea id={commentId} className="decide-comment" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} rows={2} />
        <RequestChange request={request} />
      </ConfirmDialog>
    );
  }
  const verb = withdrawing ? 'Withdraw' : 'Decline';
  return (
    <ConfirmDialog
      title={`${verb} a change to ${request.environment}`}
      open
      names={[]}
      confirmLabel={verb}
      question={
        <>
          Nothing runs: <strong>{title}</strong> is {withdrawing ? 'withdrawn' : 'declined'}
          {withdrawing ? '' : `, and ${request.requested_by} reads your comment`}.
        </>
      }
      onClose={onClose}
      onConfirm={() => comment.trim() && onDecide(comment.trim())}
    >
      <label htmlFor={commentId}>Comment</label>
      <textarea id={commentId} className="decide-comment" value={comment} onChange={(e) => setComment(e.target.value)} required maxLength={2000} rows={3} />
    </ConfirmDialog>
  );
}
