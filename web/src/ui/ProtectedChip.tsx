// A protected environment's chip, saying when its changes need a second operator.
export function ProtectedChip({ approvals }: { approvals: number }) {
  return (
    <span className="chip protected" title={approvals > 1 ? 'Each change here is a change request a second operator approves' : undefined}>
      protected{approvals > 1 ? ` · ${approvals} approvals` : ''}
    </span>
  );
}
