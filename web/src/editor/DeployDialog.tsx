// Deploying to a protected environment asks the operator to type its name,
// showing what is live there against the revision that would go live. Where
// the environment requires approvals, the deploy is a change request, so it
// asks why too: the approvers read it on the request (and in its webhooks).
import { useId, useState } from 'react';
import { DeployChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';

interface Props {
  project: string;
  environment: string;
  path: string;
  revision: number;
  /** How many people's word a change there needs: above 1, a reason is asked. */
  approvals: number;
  open: boolean;
  onConfirm: (reason: string | null) => void;
  onClose: () => void;
}

export function DeployDialog({ project, environment, path, revision, approvals, open, onConfirm, onClose }: Props) {
  const [reason, setReason] = useState('');
  const reasonId = useId();
  if (!open) return null;
  const asks = approvals > 1;
  return (
    <ConfirmDialog
      title={`Deploy to ${environment}`}
      open
      names={[environment]}
      confirmLabel="Deploy"
      question={
        asks ? (
          <>
            {environment} requires {approvals} approvals: deploying asks for {path} <strong>r{revision}</strong> to go live there, and it does once{' '}
            {approvals === 2 ? 'another operator approves' : `${approvals - 1} others approve`}.
          </>
        ) : (
          <>
            Deploying puts {path} <strong>r{revision}</strong> live in {environment}.
          </>
        )
      }
      onClose={onClose}
      onConfirm={() => {
        if (!asks) return onConfirm(null);
        if (reason.trim()) onConfirm(reason.trim());
      }}
    >
      {asks && (
        <>
          <label htmlFor={reasonId}>Why (shown to the approvers)</label>
          <textarea id={reasonId} className="decide-comment" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={2000} rows={2} />
        </>
      )}
      <DeployChange project={project} environment={environment} path={path} revision={revision} />
    </ConfirmDialog>
  );
}
