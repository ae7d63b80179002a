// How many approvals a change to a protected environment needs: 1, the
// operator making it (who types the name), or 2, a second operator approving
// its change request. An admin sets it through set_environment_protection,
// confirming by the environment's name; where two are required already, that
// change is itself a change request.
import { useState, type FormEvent } from 'react';
import { runTool } from '../api/client';
import { useProject } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { OpenedNote } from '../change-requests/opened';
import { ProtectionChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

export function ProtectionSection({ project, environment }: { project: string; environment: string }) {
  const details = useProject(project).data?.environments.find((e) => e.name === environment);
  const mayManage = usePermission(project, environment, 'set_environment_protection');
  const [picked, setPicked] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const action = useAction({
    mutationFn: (approvals: number) => runTool('set_environment_protection', { project, environment, approvals_required: approvals }),
    onSuccess: () => setPicked(null),
    changes: [queryKeys.project()],
  });
  if (!details) return null;
  const approvals = picked ?? details.approvals_required;

  function ask(event: FormEvent) {
    event.preventDefault();
    if (mayManage.allowed && approvals !== details?.approvals_required) setConfirming(true);
  }

  function apply() {
    setConfirming(false);
    action.mutate(approvals);
  }

  return (
    <>
      <h2>Approvals</h2>
      <p className="muted">
        {!details.protected
          ? `${environment} is not protected: changes run at once. Only a protected environment may require a second operator's approval.`
          : details.approvals_required > 1
            ? `Each change to ${environment} is a change request that a second operator approves.`
            : `A change to ${environment} runs once the operator making it types its name.`}
      </p>
      {details.protected && (
        <form className="inline approvals-form" onSubmit={ask} aria-label="Approvals required">
          <label htmlFor="approvals-required">Approvals required</label>
          <select id="approvals-required" value={approvals} onChange={(e) => setPicked(Number(e.target.value))}>
            <option value={1}>1: the operator making the change</option>
            <option value={2}>2: a second operator approves</option>
          </select>
          <ActionButton permission={mayManage} type="submit" disabled={action.isPending || approvals === details.approvals_required} aria-haspopup="dialog">
            Set approvals
          </ActionButton>
        </form>
      )}
      {action.error && <Failure error={action.error} />}
      <OpenedNote request={action.opened} />
      {confirming && (
        <ConfirmDialog
          title={`Set the approvals of ${environment}`}
          open
          names={[environment]}
          confirmLabel="Set approvals"
          question={`${environment} would require ${approvals} ${approvals === 1 ? 'approval' : 'approvals'} for each change.`}
          onClose={() => setConfirming(false)}
          onConfirm={apply}
        >
          <ProtectionChange environment={environment} protect={undefined} approvals={approvals} />
        </ConfirmDialog>
      )}
    </>
  );
}
