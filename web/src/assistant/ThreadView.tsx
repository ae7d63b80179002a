// A conversation: each message with its time (answers in Markdown), the
// proposals under the answer that made them, the refused and waiting states,
// and a running turn as it streams.
import { useEffect, useRef, useState } from 'react';
import type { ProposalResponse } from '../../../src/wire/proposal';
import type { ThreadResponse } from '../../../src/wire/thread';
import { ProposalChange } from '../confirm/changes';
import { ConfirmDialog } from '../confirm/ConfirmDialog';
import { changesProtected, useProtection } from '../confirm/protection';
import { Markdown } from '../markdown/Markdown';
import { ActionButton } from '../ui/ActionButton';
import { ALLOWED } from '../ui/permission';
import { AgentWork } from './AgentWork';
import { ACCEPT_ALL_ID } from './decisionFocus';
import type { LiveTurn } from './liveTurn';
import type { ShownTurn } from './useRunningTurn';
import { MessageTime } from './MessageTime';
import { NewMessagesPill } from './NewMessagesPill';
import { ProposalCard } from './ProposalCard';
import { QuestionForm } from './QuestionForm';
import { SendStatus } from './SendStatus';
import { useFollowNewest } from './useFollowNewest';

interface Props {
  thread: ThreadResponse | null;
  /** Who answers: the built-in assistant or the agent's title. */
  holder: string;
  /** The turn running in this thread: what it has done so far, and the operator's message until it is stored. */
  running: ShownTurn | null;
  /** Cancels the running turn; null while it cannot be (not started, or already asked). */
  onStop: (() => void) | null;
  deciding: boolean;
  onDecide: (proposal: ProposalResponse, decision: 'accept' | 'reject') => void;
  /** Accepts the waiting proposals shown, naming them. */
  onAcceptAll: (seen: readonly string[]) => void;
  /** A decision the server refused (409), said where the operator clicked. */
  refusal?: DecisionRefusal | null;
  /** Counts the times the waiting proposal should come into view (a message refused because it waits). */
  revealWaiting?: number;
}

/** A refused decision's sentence and where it was clicked: a proposal's id, or null for Accept all. */
export interface DecisionRefusal {
  at: string | null;
  message: string;
}

export function ThreadView({ thread, holder, running, onStop, deciding, onDecide, onAcceptAll, refusal = null, revealWaiting = 0 }: Props) {
  // Follows the newest while the operator has not scrolled up (also when a
  // card grows after its diff loads); says "New messages" when they have.
  const progress = [
    thread?.messages.length,
    thread?.proposals.map((p) => p.status).join(),
    thread?.state,
    running?.message,
    running?.live.text.length,
    running?.live.toolCalls.length,
    running?.live.plan.length,
    running?.live.proposals.length,
  ].join('|');
  const { scroller, content, unseen, toNewest, reveal } = useFollowNewest(thread?.id ?? null, progress);
  const waiting = thread?.proposals.filter((p) => p.status === 'pending') ?? [];
  // Asked to (a message refused because a proposal waits): the first waiting card comes into view,
  // also when it shows only once the thread is read again.
  const revealed = useRef(0);
  const waitingIds = waiting.map((p) => p.id).join();
  useEffect(() => {
    if (revealWaiting === revealed.current) return;
    const card = content.current?.querySelector('.card.proposal.pending');
    if (!card) return;
    revealed.current = revealWaiting;
    reveal(card);
  }, [revealWaiting, waitingIds, content, reveal]);
  // Accept all asks once, naming every protected environment it would change.
  const isProtected = useProtection(waiting.map((p) => p.project ?? thread?.project ?? ''));
  const guarded = waiting.filter((p) => changesProtected(p, isProtected, thread?.project ?? ''));
  const names = [...new Set(guarded.map((p) => p.environment))];
  const [confirmingAll, setConfirmingAll] = useState(false);
  // A proposal of the newest answer waiting for approvals, with proposals after it still waiting: Accept all stopped at it.
  const newestAnswer = thread?.proposals.at(-1)?.message_id;
  const ofNewest = thread?.proposals.filter((p) => p.message_id === newestAnswer) ?? [];
  const stoppedIndex = ofNewest.findIndex((p) => p.requested && p.change_request?.status === 'pending');
  const stoppedAt = stoppedIndex >= 0 ? ofNewest[stoppedIndex] : undefined;
  const stoppedAfter = ofNewest.slice(stoppedIndex + 1).filter((p) => p.status === 'pending').length;
  return (
    <div className="thread-frame">
    <div className="thread" ref={scroller} tabIndex={0} role="log" aria-label="Conversation so far" aria-live="polite" aria-busy={running !== null}>
      <div className="thread-content" ref={content}>
      {!thread && !running && <p className="muted small">Ask a question, or let the assistant propose a change for you to accept.</p>}
      {thread?.messages.map((m) => (
        <div key={m.id} className="entry">
          <AgentWork toolCalls={m.tool_calls} plan={m.plan} />
          {(m.text || m.role === 'user') && <MessageText role={m.role} text={m.text} holder={holder} />}
          <MessageTime at={m.at} role={m.role} />
          {m.stop_reason === 'cancelled' && <p className="muted small stopped">Stopped before it finished.</p>}
          {thread.proposals
            .filter((p) => p.message_id === m.id)
            .map((p) => (
              <ProposalCard key={p.id} proposal={p} busy={deciding} onDecide={onDecide} refusal={refusal?.at === p.id ? refusal.message : null} />
            ))}
        </div>
      ))}
      {running && (
        <>
          {running.message && <div className="message user">{running.message}</div>}
          <LiveAnswer live={running.live} holder={holder} thread={thread} />
          {running.known ? <Working holder={holder} startedAt={running.startedAt} onStop={onStop} /> : <SendStatus since={running.startedAt} />}
        </>
      )}
      {thread?.state === 'refused' && !running && <p className="notice">{holder} declined this request; rephrase it or ask something else.</p>}
      {waiting.length >= 2 && (
        <div className="accept-all">
          <span>{waiting.length} proposals are waiting for your decision</span>
          <ActionButton
            id={ACCEPT_ALL_ID}
            primary
            permission={ALLOWED}
            disabled={deciding}
            onClick={() => (names.length > 0 ? setConfirmingAll(true) : onAcceptAll(waiting.map((p) => p.id)))}
            aria-haspopup={names.length > 0 ? 'dialog' : undefined}
          >
            Accept all
          </ActionButton>
        </div>
      )}
      {refusal && refusal.at === null && (
        <p className="error accept-all-refusal" role="alert">
          {refusal.message}
        </p>
      )}
      {stoppedAt && stoppedAfter > 0 && (
        <p className="notice small accept-all-stopped" role="status">
          “{stoppedAt.title}” waits for approval by other operators, so Accept all stopped there; {stoppedAfter} after it still{' '}
          {stoppedAfter === 1 ? 'waits' : 'wait'} for your decision.
        </p>
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
            onAcceptAll(waiting.map((p) => p.id));
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
    {unseen && <NewMessagesPill onClick={() => toNewest(true)} />}
    </div>
  );
}

const LONG = 160;

/** A message: an answer as Markdown, the operator's as typed. */
function MessageText({ role, text, holder }: { role: 'user' | 'assistant'; text: string; holder: string }) {
  return role === 'assistant' ? <AnswerText text={text} holder={holder} /> : <UserText text={text} />;
}

/** The operator's message as typed; a long one (a pasted script, a document) opens on demand. */
function UserText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > LONG;
  return (
    <div className="message user">
      <span className="visually-hidden">You: </span>
      {long && !open ? `${text.slice(0, LONG)}…` : text}
      {long && (
        <button type="button" className="more" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}

function AnswerText({ text, holder }: { text: string; holder: string }) {
  return (
    <div className="message assistant">
      <span className="visually-hidden">{holder}: </span>
      <Markdown text={text} />
    </div>
  );
}

/** The running turn so far: tool calls and plan, the text, the proposals it made (their cards come with the answer). */
function LiveAnswer({ live, holder, thread }: { live: LiveTurn; holder: string; thread: ThreadResponse | null }) {
  return (
    <div className="live">
      <AgentWork toolCalls={live.toolCalls} plan={live.plan} />
      {live.text && <AnswerText text={live.text} holder={holder} />}
      {thread &&
        live.questions.map((q) => <QuestionForm key={q.id} threadId={thread.id} question={q} holder={holder} viewer={thread.role === 'viewer'} />)}
      {live.proposals.map((p) => (
        <p key={p.id} className="live-proposal small">
          Proposed: <strong>{p.title}</strong>
        </p>
      ))}
    </div>
  );
}

/** The visible progress of a running turn since it started (also before this tab saw it), and its Stop. */
function Working({ holder, startedAt, onStop }: { holder: string; startedAt: number; onStop: (() => void) | null }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor(Math.max(0, now - startedAt) / 1000);
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
