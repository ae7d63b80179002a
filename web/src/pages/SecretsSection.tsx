// An environment's secrets by name and version; set one with a password
// field (the value goes to the server and is never shown again), delete one.
// On a protected environment either asks for the environment's name first.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { runTool } from '../api/client';
import { useProject } from '../api/queries';
import type { Secret } from '../api/types';
import { SecretChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { shortTime } from '../ui/time';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

export function SecretsSection({ project, environment }: { project: string; environment: string }) {
  const secrets = useQuery({
    queryKey: ['secrets', project, environment],
    queryFn: () => runTool<{ secrets: Secret[] }>('list_secrets', { project, environment }).then((r) => r.secrets),
  });
  const mayWrite = usePermission(project, environment, 'set_secret');
  const action = useAction();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  // Until the project is read, the environment counts as protected.
  const asksName = useProject(project).data?.environments.find((e) => e.name === environment)?.protected !== false;
  const [confirming, setConfirming] = useState<{ kind: 'set' | 'delete'; name: string } | null>(null);

  async function setSecret() {
    const done = await action.run(() => runTool('set_secret', { project, environment, name: name.trim(), value }), ['secrets']);
    if (done) {
      setName('');
      setValue('');
    }
  }

  const deleteSecret = (secret: string) =>
    void action.run(() => runTool('delete_secret', { project, environment, name: secret }), ['secrets']);

  function set(event: FormEvent) {
    event.preventDefault();
    if (!mayWrite.allowed) return;
    if (asksName) setConfirming({ kind: 'set', name: name.trim() });
    else void setSecret();
  }

  return (
    <>
      <h2>Secrets</h2>
      {secrets.error && <Failure error={secrets.error} />}
      {action.error && <Failure error={action.error} />}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Version</th>
            <th scope="col">Set by</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {secrets.data?.map((s) => (
            <tr key={s.name}>
              <td>
                <code>{s.name}</code>
              </td>
              <td>v{s.version}</td>
              <td>
                {s.updated_by ?? 'someone'} <span className="muted">{shortTime(s.updated_at)}</span>
              </td>
              <td>
                <ActionButton
                  permission={mayWrite}
                  disabled={action.busy}
                  aria-label={`Delete ${s.name}`}
                  aria-haspopup={asksName ? 'dialog' : undefined}
                  onClick={() => (asksName ? setConfirming({ kind: 'delete', name: s.name }) : deleteSecret(s.name))}
                >
                  Delete
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline" onSubmit={(e) => void set(e)} aria-label="Set a secret">
        <label htmlFor="secret-name">Name</label>
        <input id="secret-name" value={name} onChange={(e) => setName(e.target.value)} pattern="[A-Z][A-Z0-9_]*" placeholder="API_KEY" required />
        <label htmlFor="secret-value">Value</label>
        <input id="secret-value" type="password" autoComplete="new-password" value={value} onChange={(e) => setValue(e.target.value)} required />
        <ActionButton permission={mayWrite} type="submit" disabled={action.busy}>
          Set secret
        </ActionButton>
      </form>
      {confirming && (
        <ConfirmDialog
          title={confirming.kind === 'set' ? `Set ${confirming.name} in ${environment}` : `Delete ${confirming.name} from ${environment}`}
          open
          names={[environment]}
          confirmLabel={confirming.kind === 'set' ? 'Set secret' : 'Delete'}
          question={
            confirming.kind === 'set'
              ? `Documents live in ${environment} that refer to ${confirming.name} serve the new value at once.`
              : `Documents in ${environment} can no longer refer to ${confirming.name}.`
          }
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            const chosen = confirming;
            setConfirming(null);
            if (chosen.kind === 'set') void setSecret();
            else deleteSecret(chosen.name);
          }}
        >
          <SecretChange project={project} environment={environment} name={confirming.name} deleting={confirming.kind === 'delete'} />
        </ConfirmDialog>
      )}
    </>
  );
}
