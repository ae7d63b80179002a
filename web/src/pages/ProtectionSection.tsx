// How many people's word a change to a protected environment needs, the
// requester's ask being the first: 1 runs it once the operator making it
// types the name; N up to six makes it a change request N − 1 others approve.
// Whether the requester's own approval counts is a switch of its own, refused
// where N is 1 (nothing to approve), as the API refuses it. An admin sets both
// through set_environment_protection, confirming by the environment's name;
// where approvals are required already, that change is itself a change request.
import { useId, useState, type FormEvent } from 'react';
import { MAX_APPROVALS } from '../../../src/wire/project';
import { runTool } from '../api/client';
import { useProject } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { OpenedNote } from '../change-requests/opened';
import { ProtectionChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { othersApprove } from '../confirm/ReasonField';
import { ActionButton } from '../ui/ActionButton';
import { usePermission } from '../ui/permission';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

/** The settings the form sends: both, always, so lowering N to 1 also turns self-approval off. */
interface Rule {
  approvals: number;
  requesterMayApprove: boolean;
}

const COUNTS = Array.from({ length: MAX_APPROVALS }, (_, i) => i + 1);

function countLabel(n: number): string {
  if (n === 1) return '1: the operator making the change';
  return `${n}: the requester and ${n === 2 ? 'one other' : `${n - 1} others`}`;
}

/** Why the switch cannot be turned on, or null. */
function selfApprovalRefused(approvals: number): string | null {
  return approvals < 2 ? 'With 1 approval nobody approves a change, so there is nothing a requester could approve.' : null;
}

export function ProtectionSection({ project, environment }: { project: string; environment: string }) {
  const details = useProject(project).data?.environments.find((e) => e.name === environment);
  const mayManage = usePermission(project, environment, 'set_environment_protection');
  const [picked, setPicked] = useState<Partial<Rule>>({});
  const [confirming, setConfirming] = useState(false);
  const selfId = useId();
  const selfWhy = useId();
  const action = useAction({
    mutationFn: (rule: Rule) =>
      runTool('set_environment_protection', { project, environment, approvals_required: rule.approvals, requester_may_approve: rule.requesterMayApprove }),
    onSuccess: () => setPicked({}),
    changes: [queryKeys.project()],
  });
  if (!details) return null;
  const approvals = picked.approvals ?? details.approvals_required;
  const refused = selfApprovalRefused(approvals);
  const requesterMayApprove = refused ? false : (picked.requesterMayApprove ?? details.requester_may_approve);
  const unchanged = approvals === details.approvals_required && requesterMayApprove === details.requester_may_approve;

  function ask(event: FormEvent) {
    event.preventDefault();
    if (mayManage.allowed && !unchanged) setConfirming(true);
  }

  function apply() {
    setConfirming(false);
    action.mutate({ approvals, requesterMayApprove });
  }

  return (
    <>
      <h2>Approvals</h2>
      <p className="muted">
        {!details.protected
          ? `${environment} is not protected: changes run at once. Only a protected environment may require approvals from others.`
          : details.approvals_required > 1
            ? `Each change to ${environment} is a change request that runs once ${othersApprove(details.approvals_required)}${details.requester_may_approve ? ", the requester's own approval counting as one" : ''}.`
            : `A change to ${environment} runs once the operator making it types its name.`}
      </p>
      {details.protected && (
        <form className="inline approvals-form" onSubmit={ask} aria-label="Approvals required">
          <label htmlFor="approvals-required">Approvals required</label>
          <select id="approvals-required" value={approvals} onChange={(e) => setPicked({ ...picked, approvals: Number(e.target.value) })}>
            {COUNTS.map((n) => (
              <option key={n} value={n}>
                {countLabel(n)}
              </option>
            ))}
          </select>
          <span className="switch">
            <input
              id={selfId}
              type="checkbox"
              checked={requesterMayApprove}
              disabled={refused !== null}
              aria-describedby={refused ? selfWhy : undefined}
              onChange={(e) => setPicked({ ...picked, requesterMayApprove: e.target.checked })}
            />
            <label htmlFor={selfId}>The requester may approve</label>
          </span>
          <ActionButton permission={mayManage} type="submit" disabled={action.isPending || unchanged} aria-haspopup="dialog">
            Set approvals
          </ActionButton>
          {refused && (
            <p id={selfWhy} className="muted">
              {refused}
            </p>
          )}
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
          question={`${environment} would require ${approvals} ${approvals === 1 ? 'approval' : 'approvals'} for each change${approvals > 1 ? `, and the requester ${requesterMayApprove ? 'may' : 'may not'} approve their own` : ''}.`}
          onClose={() => setConfirming(false)}
          onConfirm={apply}
        >
          <ProtectionChange environment={environment} protect={undefined} approvals={approvals} requesterMayApprove={approvals > 1 ? requesterMayApprove : undefined} />
        </ConfirmDialog>
      )}
    </>
  );
}
