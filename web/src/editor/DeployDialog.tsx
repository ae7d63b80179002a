// Deploying to a protected environment asks the operator to type its name.
import { useState, type FormEvent } from 'react';
import { Dialog } from '../ui/Dialog';

interface Props {
  environment: string;
  path: string;
  revision: number;
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function DeployDialog({ environment, path, revision, open, onConfirm, onClose }: Props) {
  const [typed, setTyped] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    if (typed !== environment) return;
    setTyped('');
    onConfirm();
  }
  return (
    <Dialog title={`Deploy to ${environment}`} open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          {environment} is protected. Deploying puts {path} r{revision} live there. Type <strong>{environment}</strong> to confirm.
        </p>
        <label htmlFor="confirm-environment">Environment name</label>
        <input id="confirm-environment" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary danger" disabled={typed !== environment}>
            Deploy
          </button>
        </div>
      </form>
    </Dialog>
  );
}
