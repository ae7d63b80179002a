// Deploy and Rollback in the chosen environment, each with its confirmation:
// Deploy asks on a protected environment (typing its name) and is disabled,
// with the reason, while the saved revision cannot go live; Rollback always
// asks, naming the revision that comes back.
import { useState } from 'react';
import { ActionButton } from '../ui/ActionButton';
import type { Permission } from '../ui/permission';
import { DeployDialog } from './DeployDialog';
import { RollbackDialog } from '../confirm/RollbackDialog';

interface Props {
  project: string;
  path: string;
  environment: string | undefined;
  /** Whether the environment is protected; undefined while unknown. */
  protectedHere: boolean | undefined;
  /** How many people's word a change here needs: above 1, a deploy asks why, for its approvers. */
  approvalsHere: number;
  /** The saved revision, the one Deploy puts live. */
  revision: number | undefined;
  /** Why Deploy cannot run now; '' when it can. */
  deployBlocked: string;
  /** The revision live in the environment now. */
  liveRevision: number | undefined;
  mayDeploy: Permission;
  mayRollback: Permission;
  busy: boolean;
  onDeploy: (revision: number, reason: string | null) => void;
  onRollback: (reason: string | null) => void;
}

export function EnvironmentActions(props: Props) {
  const { project, path, environment, protectedHere, approvalsHere, revision, deployBlocked, liveRevision, mayDeploy, mayRollback, busy, onDeploy, onRollback } = props;
  const [asking, setAsking] = useState<'deploy' | 'rollback' | null>(null);
  const close = () => setAsking(null);
  return (
    <>
      <ActionButton
        permission={mayDeploy}
        disabled={busy || deployBlocked !== ''}
        title={deployBlocked || `Deploy the saved revision to ${environment ?? ''}`}
        onClick={() => (protectedHere ? setAsking('deploy') : revision !== undefined && onDeploy(revision, null))}
      >
        Deploy
      </ActionButton>
      <ActionButton
        permission={mayRollback}
        disabled={busy || liveRevision === undefined}
        title={liveRevision === undefined ? `Not live in ${environment ?? ''}` : `Put the revision live before r${liveRevision} back`}
        onClick={() => setAsking('rollback')}
      >
        Rollback
      </ActionButton>
      {environment && revision !== undefined && (
        <DeployDialog
          project={project}
          environment={environment}
          path={path}
          revision={revision}
          approvals={approvalsHere}
          open={asking === 'deploy'}
          onClose={close}
          onConfirm={(reason) => {
            close();
            onDeploy(revision, reason);
          }}
        />
      )}
      {environment && asking === 'rollback' && (
        <RollbackDialog
          project={project}
          environment={environment}
          path={path}
          protectedHere={protectedHere !== false}
          approvals={approvalsHere}
          onClose={close}
          onConfirm={(reason) => {
            close();
            onRollback(reason);
          }}
        />
      )}
    </>
  );
}
