// Deploying to a protected environment asks the operator to type its name,
// showing what is live there against the revision that would go live.
import { DeployChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';

interface Props {
  project: string;
  environment: string;
  path: string;
  revision: number;
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function DeployDialog({ project, environment, path, revision, open, onConfirm, onClose }: Props) {
  if (!open) return null;
  return (
    <ConfirmDialog
      title={`Deploy to ${environment}`}
      open
      names={[environment]}
      confirmLabel="Deploy"
      question={
        <>
          Deploying puts {path} <strong>r{revision}</strong> live in {environment}.
        </>
      }
      onClose={onClose}
      onConfirm={onConfirm}
    >
      <DeployChange project={project} environment={environment} path={path} revision={revision} />
    </ConfirmDialog>
  );
}
