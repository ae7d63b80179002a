// A conversation: each message, the proposals under the answer that made
// them, the refused and waiting states, and a running turn as it streams.
import { useEffect, useState } from 'react';
import type { Proposal, Thread } from '../api/types';
import { ProposalChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { changesProtected, useProtection } from '../confirm/protection';
import { AgentWork } from './AgentWork';
import type { LiveTurn } from './liveTurn';
import { NewMessagesPill } from './NewMessagesPill';
import { ProposalCard } from './ProposalCard';
import { useFollowNewest } from './useFollowNewest';

interface Props {
  thread: Thread | null;
  /** Who answers: the built-in assistant or the agent's title. */
  holder: string;
  /** The text of a turn that is running, shown until the answer comes. */
  pending: string | null;
  /** What the running turn has done so far. */
  live: LiveTurn | null;
  /** Cancels the running turn; null while it cannot be (not started, or already asked). */
  onStop: (() => void) | null;
  deciding: boolean;
  onDecide: (proposal: Proposal, decision: 'accept' | 'reject') => void;
  onAcceptAll: () => void;
  /** Counts the times the waiting proposal should come into view (a message refused because it waits). */
  revealWaiting?: number;
}

export function ThreadView({ thread, holder, pending, live, onStop, deciding, onDecide, onAcceptAll, revealWaiting = 0 }: Props) {
  // Follows the newest while the operator has not scrolled up (also when a
  // card grows after its diff loads); says "New messages" when they have.
  const progress = [
    thread?.messages.length,
    thread?.proposals.map((p) => p.status).join(),
    thread?.state,
    pending,
    live?.text.length,
    live?.toolCalls.length,
    live?.plan.length,
    live?.proposals.length,
  ].join('|');
  const follow = useFollowNewest(thread?.id ?? null, progress);
  // Asked to (a message refused because a proposal waits): the first waiting card comes into view.
  const { content, reveal } = follow;
  useEffect(() => {
    if (revealWaiting === 0) return;
    const card = content.current?.querySelector('.card.proposal.pending');
    if (card) reveal(card);
  }, [revealWaiting, content, reveal]);
  const waiting = thread?.proposals.filter((p) => p.status === 'pending') ?? [];
  // Accept all asks once, naming every protected environment it would change.
  const isProtected = useProtection(waiting.map((p) => p.project ?? thread?.project ?? ''));
  const guarded = waiting.filter((p) => changesProtected(p, isProtected, thread?.project ?? ''));
  const names = [...new Set(guarded.map((p) => p.environment))];
  const [confirmingAll, setConfirmingAll] = useState(false);
  return (
    <div className="thread-frame">
    <div className="thread" ref={follow.scroller} tabIndex={0} role="log" aria-label="Conversation so far" aria-live="polite" aria-busy={pending !== null}>
      <div className="thread-content" ref={follow.content}>
      {!thread && !pending && <p className="muted small">Ask a question, or let the assistant propose a change for you to accept.</p>}
      {thread?.messages.map((m) => (
        <div key={m.id} className="entry">
          <AgentWork toolCalls={m.tool_calls} plan={m.plan} />
          {(m.text || m.role === 'user') && <MessageText role={m.role} text={m.text} holder={holder} />}
          {m.stop_reason === 'cancelled' && <p className="muted small stopped">Stopped before it finished.</p>}
          {thread.proposals
            .filter((p) => p.message_id === m.id)
            .map((p) => (
              <ProposalCard key={p.id} proposal={p} busy={deciding} onDecide={onDecide} />
            ))}
        </div>
      ))}
      {pending && (
        <>
          <div className="message user">{pending}</div>
          {live && <LiveAnswer live={live} holder={holder} />}
          <Working holder={holder} onStop={onStop} />
        </>
      )}
      {thread?.state === 'refused' && !pending && <p className="notice">{holder} declined this request; rephrase it or ask something else.</p>}
      {waiting.length >= 2 && (
        <div className="accept-all">
          <span>{waiting.length} proposals are waiting for your decision</span>
          <button
            type="button"
            className="primary"
            disabled={deciding}
            onClick={() => (names.length > 0 ? setConfirmingAll(true) : onAcceptAll())}
            aria-haspopup={names.length > 0 ? 'dialog' : undefined}
          >
            Accept all
          </button>
        </div>
      )}
      {confirmingAll && (
        <ConfirmDialog
          title={`Accept all, changing ${names.join(' and ')}`}
          open
          names={names}
          confirmLabel="Accept all"
          question={
            <>
              Accepting all runs the {waiting.length} waiting proposals as you, in order; {guarded.length === 1 ? 'one changes' : `${guarded.length} change`}{' '}
              {names.join(' and ')}:
            </>
          }
          onClose={() => setConfirmingAll(false)}
          onConfirm={() => {
            setConfirmingAll(false);
            onAcceptAll();
          }}
        >
          {guarded.map((p) => (
            <section key={p.id} className="confirm-item" aria-label={p.title}>
              <h3>{p.title}</h3>
              <ProposalChange proposal={p} />
            </section>
          ))}
        </ConfirmDialog>
      )}
      {thread?.state === 'waiting' && waiting.length === 1 && <p className="muted small">A proposal is waiting for your decision.</p>}
      </div>
    </div>
    {follow.unseen && <NewMessagesPill onClick={() => follow.toNewest(true)} />}
    </div>
  );
}

const LONG = 160;

/** A message; a long one (a pasted script, a document) opens on demand. */
function MessageText({ role, text, holder }: { role: 'user' | 'assistant'; text: string; holder: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > LONG;
  return (
    <div className={`message ${role}`}>
      <span className="visually-hidden">{role === 'user' ? 'You: ' : `${holder}: `}</span>
      {long && !open ? `${text.slice(0, LONG)}…` : text}
      {long && (
        <button type="button" className="more" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}

/** The running turn so far: tool calls and plan, the text, the proposals it made (their cards come with the answer). */
function LiveAnswer({ live, holder }: { live: LiveTurn; holder: string }) {
  return (
    <div className="live">
      <AgentWork toolCalls={live.toolCalls} plan={live.plan} />
      {live.text && (
        <div className="message assistant">
          <span className="visually-hidden">{holder}: </span>
          {live.text}
        </div>
      )}
      {live.proposals.map((p) => (
        <p key={p.id} className="live-proposal small">
          Proposed: <strong>{p.title}</strong>
        </p>
      ))}
    </div>
  );
}

/** The visible progress of a running turn, and its Stop. */
function Working({ holder, onStop }: { holder: string; onStop: (() => void) | null }) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="working">
      <span className="spinner" aria-hidden="true" />
      <span role="status">
        {holder} is working{seconds > 0 ? ` · ${seconds}s` : '…'}
      </span>
      <button type="button" className="stop" disabled={!onStop} onClick={onStop ?? undefined}>
        Stop
      </button>
    </div>
  );
}
