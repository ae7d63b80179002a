// One proposal: title, status, rows, a diff for a document write, and the
// operator's decision. A write's Accept is gated on the operator's own
// permission where it acts (the tag says which proposals the gate covers).
// A deploy or rollback shows what it would change where it acts; Accept of a
// change to a protected environment asks for its name first. Accepted where
// others must approve, it is requested: it names its change request (that
// request's state in a sentence, live, with a link to it) and its requester
// may still withdraw it. A decision the server refused says why here. One
// that can no longer run as shown says so (stale, with what moved), and a
// pinned deploy whose document moved on offers the newest beside it.
import { useState } from 'react';
import { Link } from 'wouter';
import { useRevisionText } from '../api/queries';
import type { ProposalResponse } from '../../../src/wire/proposal';
import { requestHref } from '../change-requests/queries';
import { ProposalChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { changesProtected, useProtection } from '../confirm/protection';
import { ActionButton } from '../ui/ActionButton';
import { LineDiff } from '../ui/LineDiff';
import { ALLOWED, usePermission, type Permission } from '../ui/permission';
import { acceptButtonId, proposalCardId } from './decisionFocus';
import { DeployInstead } from './DeployInstead';

const STATUS: Record<ProposalResponse['status'], string> = {
  pending: 'waiting for your decision',
  accepted: 'accepted',
  rejected: 'rejected',
  failed: 'failed',
};

interface Props {
  proposal: ProposalResponse;
  busy: boolean;
  onDecide: (proposal: ProposalResponse, decision: 'accept' | 'reject') => void;
  /** Why the server refused this card's decision (409), said where the operator clicked. */
  refusal?: string | null;
}

export function ProposalCard({ proposal, busy, onDecide, refusal = null }: Props) {
  const project = proposal.project ?? '';
  const permission = usePermission(project, proposal.environment, proposal.tool);
  const gate: Permission = proposal.tag === 'write' ? permission : ALLOWED;
  const titleId = `proposal-${proposal.id}`;
  const error = typeof proposal.result?.error === 'string' ? proposal.result?.error : '';
  const isProtected = useProtection([project]);
  const asksName = changesProtected(proposal, isProtected);
  const [confirming, setConfirming] = useState(false);
  const request = proposal.change_request;
  // Accepted already (requested): it waits for other operators, not for this one.
  const awaitsApproval = proposal.requested && request?.status === 'pending';
  const showsChange = proposal.status === 'pending' && (proposal.tool === 'deploy' || proposal.tool === 'rollback');
  return (
    <article className={`card proposal ${proposal.status}`} id={proposalCardId(proposal.id)} aria-labelledby={titleId}>
      <header>
        <h3 id={titleId}>{proposal.title}</h3>
        <span className={`status ${proposal.status}`}>{awaitsApproval ? 'waiting for a second operator' : STATUS[proposal.status]}</span>
        {proposal.stale && <span className="status stale">stale</span>}
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
      {request && (
        <p className={`card-request ${request.status}`}>
          Change request {request.status}: {request.sentence}.{' '}
          <Link href={requestHref(project, request.id)}>Open the change request</Link>
        </p>
      )}
      {proposal.stale && proposal.status === 'pending' && (
        <p className="error card-stale" role="status">
          Stale: {proposal.stale_reason}.
        </p>
      )}
      {proposal.status === 'pending' && proposal.newer_revision !== null && (
        <DeployInstead proposal={proposal} newer={proposal.newer_revision} permission={gate} busy={busy} onReject={() => onDecide(proposal, 'reject')} />
      )}
      {proposal.status === 'failed' && error && (
        <p className="error" role="status">
          {error}
        </p>
      )}
      {refusal && (
        <p className="error" role="alert">
          {refusal}
        </p>
      )}
      {(proposal.status === 'pending' || awaitsApproval) && (
        <footer>
          {!awaitsApproval && (
            <ActionButton
              id={acceptButtonId(proposal.id)}
              primary
              permission={gate}
              disabled={busy}
              onClick={() => (asksName ? setConfirming(true) : onDecide(proposal, 'accept'))}
              aria-haspopup={asksName ? 'dialog' : undefined}
            >
              Accept
            </ActionButton>
          )}
          {/* Kept focusable while a decision runs (aria-disabled): the focus stays on the card until it moves on. */}
          <ActionButton permission={ALLOWED} disabled={busy} onClick={() => onDecide(proposal, 'reject')}>
            Reject
          </ActionButton>
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
function WriteDiff({ proposal }: { proposal: ProposalResponse }) {
  const row = (k: string) => proposal.rows.find((r) => r.k === k)?.v;
  const proposed = row('text');
  const path = row('path');
  const base = /based on r(\d+)/.exec(row('revision') ?? '')?.[1];
  const stored = useRevisionText(proposal.project ?? '', path ?? '', proposed !== undefined && path !== undefined && base !== undefined ? Number(base) : undefined);
  if (proposed === undefined) return null;
  if (base !== undefined && stored.data === undefined) return <p className="muted small">{stored.error ? stored.error.message : 'Loading the diff…'}</p>;
  return <LineDiff before={stored.data ?? ''} after={proposed} label={`Changes to ${path ?? 'the document'}`} />;
}
