// A conversation: each message, the proposals under the answer that made
// them, the refused and waiting states, and a running turn as it streams.
import { useEffect, useRef, useState } from 'react';
import type { Proposal, Thread } from '../api/types';
import { AgentWork } from './AgentWork';
import type { LiveTurn } from './liveTurn';
import { ProposalCard } from './ProposalCard';

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
}

export function ThreadView({ thread, holder, pending, live, onStop, deciding, onDecide, onAcceptAll }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // Stays scrolled to the newest while the operator has not scrolled up, also
  // when a card grows after its diff loads.
  useEffect(() => {
    const scroller = box.current;
    const inner = content.current;
    if (!scroller || !inner) return;
    let pinned = true;
    const onScroll = () => {
      pinned = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
    };
    const observer = new ResizeObserver(() => {
      if (pinned) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.observe(inner);
    scroller.addEventListener('scroll', onScroll);
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', onScroll);
    };
  }, []);
  const waiting = thread?.proposals.filter((p) => p.status === 'pending') ?? [];
  return (
    <div className="thread" ref={box} aria-live="polite" aria-busy={pending !== null}>
      <div className="thread-content" ref={content}>
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
          <button type="button" className="primary" disabled={deciding} onClick={onAcceptAll}>
            Accept all
          </button>
        </div>
      )}
      {thread?.state === 'waiting' && waiting.length === 1 && <p className="muted small">A proposal is waiting for your decision.</p>}
      </div>
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
