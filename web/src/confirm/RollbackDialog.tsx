// Rollback asks first, naming the revision that comes back; on a protected
// environment the operator types its name.
import { RollbackChange } from './changes';
import { ConfirmDialog } from './ConfirmDialog';

interface Props {
  project: string;
  environment: string;
  path: string;
  /** False only when the environment is known to be unprotected: unknown asks for the name. */
  protectedHere: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function RollbackDialog({ project, environment, path, protectedHere, onConfirm, onClose }: Props) {
  return (
    <ConfirmDialog
      title={`Roll back ${path} in ${environment}`}
      open
      names={protectedHere ? [environment] : []}
      confirmLabel="Rollback"
      question={<>Rollback deploys again the revision of {path} that was live in {environment} before the current one.</>}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      <RollbackChange project={project} environment={environment} path={path} />
    </ConfirmDialog>
  );
}
