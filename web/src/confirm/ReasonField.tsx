// Where a change becomes a change request (its environment requires
// approvals), the console asks why: the approvers read it on the request, in
// its webhooks and in the audit. One field for every such confirmation.
import { useId } from 'react';

interface Props {
  value: string;
  onChange: (reason: string) => void;
}

export function ReasonField({ value, onChange }: Props) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Why (shown to the approvers)</label>
      <textarea id={id} className="decide-comment" value={value} onChange={(e) => onChange(e.target.value)} required maxLength={2000} rows={2} />
    </>
  );
}

/** The sentence saying who must still approve, for N approvals where the requester's ask is the first. */
export function othersApprove(approvals: number): string {
  return approvals === 2 ? 'another operator approves' : `${approvals - 1} others approve`;
}
