// One proposal: title, status, rows, a diff for a document write, and the
// operator's decision. A write's Accept is gated on the operator's own
// permission where it acts (the tag says which proposals the gate covers).
// A deploy or rollback shows what it would change where it acts; Accept of a
// change to a protected environment asks for its name first.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { runTool } from '../api/client';
import type { Proposal, Revision } from '../api/types';
import { ProposalChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { changesProtected, useProtection } from '../confirm/protection';
import { ActionButton } from '../ui/ActionButton';
import { LineDiff } from '../ui/LineDiff';
import { usePermission, type Permission } from '../ui/permission';

const STATUS: Record<Proposal['status'], string> = {
  pending: 'waiting for your decision',
  accepted: 'accepted',
  rejected: 'rejected',
  failed: 'failed',
};

interface Props {
  proposal: Proposal;
  busy: boolean;
  onDecide: (proposal: Proposal, decision: 'accept' | 'reject') => void;
}

export function ProposalCard({ proposal, busy, onDecide }: Props) {
  const project = proposal.project ?? '';
  const permission = usePermission(project, proposal.environment, proposal.tool);
  const gate: Permission = proposal.tag === 'write' ? permission : { allowed: true, reason: '' };
  const titleId = `proposal-${proposal.id}`;
  const error = typeof proposal.result.error === 'string' ? proposal.result.error : '';
  const isProtected = useProtection([project]);
  const asksName = changesProtected(proposal, isProtected);
  const [confirming, setConfirming] = useState(false);
  const showsChange = proposal.status === 'pending' && (proposal.tool === 'deploy' || proposal.tool === 'rollback');
  return (
    <article className={`card proposal ${proposal.status}`} aria-labelledby={titleId}>
      <header>
        <h3 id={titleId}>{proposal.title}</h3>
        <span className={`status ${proposal.status}`}>{STATUS[proposal.status]}</span>
      </header>
      <dl className="rows">
        {proposal.rows
          .filter((row) => row.k !== 'text')
          .map((row, i) => (
            <div key={i}>
              <dt>{row.k}</dt>
              <dd>{row.v}</dd>
            </div>
          ))}
      </dl>
      {proposal.tool === 'write_document' && <WriteDiff proposal={proposal} />}
      {showsChange && (
        <div className="card-change">
          <ProposalChange proposal={proposal} />
        </div>
      )}
      {proposal.status === 'failed' && error && (
        <p className="error" role="status">
          {error}
        </p>
      )}
      {proposal.status === 'pending' && (
        <footer>
          <ActionButton
            primary
            permission={gate}
            disabled={busy}
            onClick={() => (asksName ? setConfirming(true) : onDecide(proposal, 'accept'))}
            aria-haspopup={asksName ? 'dialog' : undefined}
          >
            Accept
          </ActionButton>
          <button type="button" disabled={busy} onClick={() => onDecide(proposal, 'reject')}>
            Reject
          </button>
        </footer>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Accept a change to ${proposal.environment}`}
          open
          names={[proposal.environment]}
          confirmLabel="Accept"
          question={
            <>
              Accepting runs <strong>{proposal.title}</strong> as you.
            </>
          }
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onDecide(proposal, 'accept');
          }}
        >
          <ProposalChange proposal={proposal} />
        </ConfirmDialog>
      )}
    </article>
  );
}

/** The stored text (at the revision the write is based on) against the proposed one. */
function WriteDiff({ proposal }: { proposal: Proposal }) {
  const row = (k: string) => proposal.rows.find((r) => r.k === k)?.v;
  const proposed = row('text');
  const path = row('path');
  const base = /based on r(\d+)/.exec(row('revision') ?? '')?.[1];
  const stored = useQuery({
    queryKey: ['document', proposal.project, path, base],
    queryFn: () => runTool<Revision>('read_document', { project: proposal.project, path, revision: Number(base) }).then((r) => r.text),
    enabled: proposed !== undefined && path !== undefined && base !== undefined,
    staleTime: Infinity,
  });
  if (proposed === undefined) return null;
  if (base !== undefined && stored.data === undefined) return <p className="muted small">{stored.error ? stored.error.message : 'Loading the diff…'}</p>;
  return <LineDiff before={stored.data ?? ''} after={proposed} label={`Changes to ${path ?? 'the document'}`} />;
}
