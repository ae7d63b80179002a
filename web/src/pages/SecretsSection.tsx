// An environment's secrets by name and version; set one with a password
// field (the value goes to the server and is never shown again), delete one.
// On a protected environment either asks for the environment's name first;
// where it requires approvals, either asks why (for the approvers), opens a
// change request and says so.
import { useState, type FormEvent } from 'react';
import { runTool } from '../api/client';
import { useProject, useSecrets } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { OpenedNote } from '../change-requests/opened';
import { SecretChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { othersApprove, ReasonField } from '../confirm/ReasonField';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { shortTime } from '../ui/time';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

/** A secret set (to the value typed) or deleted; `reason` for the approvers where it opens a change request. */
type SecretWrite = ({ kind: 'set'; name: string; value: string } | { kind: 'delete'; name: string }) & { reason?: string };

export function SecretsSection({ project, environment }: { project: string; environment: string }) {
  const secrets = useSecrets(project, environment);
  const mayWrite = usePermission(project, environment, 'set_secret');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const action = useAction({
    mutationFn: async (write: SecretWrite) => {
      const why = write.reason ? { reason: write.reason } : {};
      return write.kind === 'set'
        ? await runTool('set_secret', { project, environment, name: write.name, value: write.value, ...why })
        : await runTool('delete_secret', { project, environment, name: write.name, ...why });
    },
    onSuccess: (_, write) => {
      if (write.kind !== 'set') return;
      setName('');
      setValue('');
    },
    changes: [queryKeys.secrets()],
  });
  const here = useProject(project).data?.environments.find((e) => e.name === environment);
  // Until the project is read, the environment counts as protected.
  const asksName = here?.protected !== false;
  const approvals = here?.approvals_required ?? 1;
  const [confirming, setConfirming] = useState<{ kind: 'set' | 'delete'; name: string } | null>(null);
  const [reason, setReason] = useState('');

  const setSecret = (why?: string) => action.mutate({ kind: 'set', name: name.trim(), value, reason: why });
  const deleteSecret = (secret: string, why?: string) => action.mutate({ kind: 'delete', name: secret, reason: why });
  const confirm = (asked: { kind: 'set' | 'delete'; name: string }) => {
    setReason('');
    setConfirming(asked);
  };

  function set(event: FormEvent) {
    event.preventDefault();
    if (!mayWrite.allowed) return;
    if (asksName) confirm({ kind: 'set', name: name.trim() });
    else setSecret();
  }

  return (
    <>
      <h2>Secrets</h2>
      {secrets.error && <Failure error={secrets.error} />}
      {action.error && <Failure error={action.error} />}
      <OpenedNote request={action.opened} />
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
                  disabled={action.isPending}
                  aria-label={`Delete ${s.name}`}
                  aria-haspopup={asksName ? 'dialog' : undefined}
                  onClick={() => (asksName ? confirm({ kind: 'delete', name: s.name }) : deleteSecret(s.name))}
                >
                  Delete
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline" onSubmit={set} aria-label="Set a secret">
        <span className="field">
          <label htmlFor="secret-name">Name</label>
          <input id="secret-name" value={name} onChange={(e) => setName(e.target.value)} pattern="[A-Z][A-Z0-9_]*" placeholder="API_KEY" required />
        </span>
        <span className="field">
          <label htmlFor="secret-value">Value</label>
          <input id="secret-value" type="password" autoComplete="new-password" value={value} onChange={(e) => setValue(e.target.value)} required />
        </span>
        <ActionButton permission={mayWrite} type="submit" disabled={action.isPending}>
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
            approvals > 1
              ? `${environment} requires ${approvals} approvals: this asks for the change, and it runs once ${othersApprove(approvals)}.`
              : confirming.kind === 'set'
                ? `Documents live in ${environment} that refer to ${confirming.name} serve the new value at once.`
                : `Documents in ${environment} can no longer refer to ${confirming.name}.`
          }
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            const why = reason.trim();
            // Where it opens a change request, the approvers are told why: nothing is asked without it.
            if (approvals > 1 && !why) return;
            const chosen = confirming;
            setConfirming(null);
            if (chosen.kind === 'set') setSecret(why || undefined);
            else deleteSecret(chosen.name, why || undefined);
          }}
        >
          {approvals > 1 && <ReasonField value={reason} onChange={setReason} />}
          <SecretChange project={project} environment={environment} name={confirming.name} deleting={confirming.kind === 'delete'} />
        </ConfirmDialog>
      )}
    </>
  );
}
