// Rollback asks first, naming the revision that comes back; on a protected
// environment the operator types its name. Where the environment requires
// approvals, the rollback is a change request, so it asks why too.
import { useState } from 'react';
import { RollbackChange } from './changes';
import { ConfirmDialog } from './ConfirmDialog';
import { othersApprove, ReasonField } from './ReasonField';

interface Props {
  project: string;
  environment: string;
  path: string;
  /** False only when the environment is known to be unprotected: unknown asks for the name. */
  protectedHere: boolean;
  /** How many people's word a change there needs: above 1, a reason is asked. */
  approvals: number;
  /** `reason`: why, for the approvers (null where the rollback runs at once). */
  onConfirm: (reason: string | null) => void;
  onClose: () => void;
}

export function RollbackDialog({ project, environment, path, protectedHere, approvals, onConfirm, onClose }: Props) {
  const [reason, setReason] = useState('');
  const asks = approvals > 1;
  return (
    <ConfirmDialog
      title={`Roll back ${path} in ${environment}`}
      open
      names={protectedHere ? [environment] : []}
      confirmLabel="Rollback"
      question={
        <>
          Rollback deploys again the revision of {path} that was live in {environment} before the current one
          {asks ? <>; {environment} requires {approvals} approvals, so it asks for that, and it runs once {othersApprove(approvals)}.</> : '.'}
        </>
      }
      onClose={onClose}
      onConfirm={() => {
        if (!asks) return onConfirm(null);
        if (reason.trim()) onConfirm(reason.trim());
      }}
    >
      {asks && <ReasonField value={reason} onChange={setReason} />}
      <RollbackChange project={project} environment={environment} path={path} />
    </ConfirmDialog>
  );
}
