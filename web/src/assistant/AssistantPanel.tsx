// The assistant panel, on every page: the status sentence when no model is
// set up; the threads of this project and environment, held by the built-in
// assistant or an ACP agent (renamed, deleted, searched; an empty one reused
// by "New conversation"); the open thread's messages with their proposals,
// a running turn as it streams (with Stop), also one started elsewhere; the
// message box and the Share context switch.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../api/client';
import { useAgents, useAssistantStatus } from '../api/queries';
import type { ProposalResponse } from '../../../src/wire/proposal';
import type { ThreadResponse } from '../../../src/wire/thread';
import { PANEL_ID } from '../layout/useDrawer';
import type { Scope } from '../scope';
import { newestFailure } from '../ui/useAction';
import { ConnectAgent } from './ConnectAgent';
import { keepFocusAfterDecision } from './decisionFocus';
import { BUILT_IN, builtInTitle, HolderPicker, UnsandboxedWarning } from './HolderPicker';
import { MessageBox } from './MessageBox';
import { pickable, reusableThread } from './reusableThread';
import { ThreadBar, NONE } from './ThreadBar';
import { ThreadSearch } from './ThreadSearch';
import { threadTitle } from './threadTitle';
import { ThreadView, type DecisionRefusal } from './ThreadView';
import { chosenThreadKey, useShowThread, useThreadShown } from './showThread';
import { useThreadDeleted } from './threadChanges';
import {
  acceptAll,
  decide,
  deleteThread,
  forgetThread,
  openThread,
  refreshThread,
  useThreadUpdate,
  useThreads,
} from './threads';
import { AgentOptionsBar } from './AgentOptionsBar';
import { UsageNote } from './UsageNote';
import { useContextSharing } from './useContextSharing';
import { useRunningTurn } from './useRunningTurn';
import './assistant.css';

interface Props {
  scope: Scope;
  /** Collapsed, or a closed drawer: the panel stays mounted, so a running turn is still followed. */
  hidden: boolean;
  onHide: () => void;
}

export function AssistantPanel({ scope, hidden, onHide }: Props) {
  const queries = useQueryClient();
  const status = useAssistantStatus().data;
  const agents = useAgents().data ?? [];
  const threads = useThreads();
  const update = useThreadUpdate();
  const [location] = useLocation();
  const inScope = (t: ThreadResponse) => (t.project ?? undefined) === scope.project && (!scope.project || t.environment === scope.environment);
  const scoped = (threads.data ?? []).filter(inScope);
  const scopeKey = chosenThreadKey(scope.project, scope.environment);
  // NONE when the open conversation was deleted elsewhere: none is shown until the operator picks or starts one.
  const [chosen, setChosen] = useState<string | null>(() => sessionStorage.getItem(scopeKey));
  /** A calm word that the conversation shown was deleted elsewhere. */
  const [gone, setGone] = useState('');
  // Another project or environment: its own choice, read from storage (where the top bar may just have put it).
  const [shownScope, setShownScope] = useState(scopeKey);
  if (shownScope !== scopeKey) {
    setShownScope(scopeKey);
    setChosen(sessionStorage.getItem(scopeKey));
    setGone('');
  }
  const thread = chosen === NONE ? null : (scoped.find((t) => t.id === chosen) ?? scoped[0] ?? null);
  const [sharing, setSharing] = useState(true);
  const turn = useRunningTurn(thread);
  const [picked, setPicked] = useState<string | null>(null);
  /** Counts the messages refused because a proposal waits: each brings the waiting card into view. */
  const [revealWaiting, setRevealWaiting] = useState(0);
  const [searching, setSearching] = useState(false);
  const showThread = useShowThread();
  /** The conversations this tab is deleting: the change stream's word of it is no news here. */
  const deleting = useRef(new Set<string>());
  useContextSharing(thread?.id ?? null, sharing);

  // A new conversation goes to the built-in assistant when it is set up, else to the first agent that can start.
  const holderChoice = picked ?? (status?.configured === false ? (agents.find((a) => a.available)?.name ?? BUILT_IN) : BUILT_IN);
  const canOpen = holderChoice === BUILT_IN ? status?.configured === true : agents.some((a) => a.name === holderChoice && a.available);
  const agentTitle = (name: string) => agents.find((a) => a.name === name)?.title ?? name;
  const heldBy = thread ? thread.agent : holderChoice === BUILT_IN ? null : holderChoice;
  const holder = heldBy ? agentTitle(heldBy) : 'The assistant';
  const canSend = thread ? thread.agent !== null || status?.configured === true : canOpen;

  function choose(id: string) {
    sessionStorage.setItem(scopeKey, id);
    setChosen(id);
    setGone('');
  }

  // Asked for from the top bar: the scope's panel reads the same choice from storage when the page moved.
  const region = useRef<HTMLElement>(null);
  useThreadShown((id) => {
    setChosen(id);
    setGone('');
    setRevealWaiting((n) => n + 1);
    requestAnimationFrame(() => region.current?.querySelector<HTMLElement>('[role=log]')?.focus());
  });

  useThreadDeleted((id) => {
    // The operator's choice counts too: the list, read again before this word came, may already lack it (and its title).
    if ((id !== thread?.id && id !== chosen) || deleting.current.has(id)) return;
    sessionStorage.removeItem(scopeKey);
    setChosen(NONE);
    setGone(thread?.id === id ? `The conversation “${threadTitle(thread)}” was deleted elsewhere.` : 'The conversation you had open was deleted elsewhere.');
  });

  /** The thread as the server answered an action: kept in the list, and shown (unless the page moved to another scope meanwhile). */
  function showAnswer(answer: ThreadResponse) {
    update(answer);
    if (inScope(answer)) choose(answer.id);
  }

  /** Refused with 409, this tab's view is behind (a proposal or a turn it has not seen): read the thread, then show what waits. */
  async function catchUp(error: Error) {
    if (!(error instanceof ApiError && error.status === 409) || !thread) return;
    await refreshThread(queries, thread.id);
    setRevealWaiting((n) => n + 1);
  }

  /** A conversation being opened: a message sent meanwhile goes to it, not to the one shown before. */
  const opening = useRef<Promise<ThreadResponse> | null>(null);
  function open(): Promise<ThreadResponse> {
    const opened = openThread(scope.project, scope.environment, location, holderChoice === BUILT_IN ? null : holderChoice);
    opening.current = opened;
    const settled = () => {
      if (opening.current === opened) opening.current = null;
    };
    opened.then(settled, settled);
    return opened;
  }

  /** "New conversation": an empty one of the same holder is reused, and a second click while one opens waits for it. */
  function newConversation(): Promise<ThreadResponse> {
    setSearching(false);
    if (opening.current) return opening.current;
    const empty = reusableThread(thread, scoped, holderChoice === BUILT_IN ? null : holderChoice, turn.shown ? (thread?.id ?? null) : null);
    return empty ? Promise.resolve(empty) : open();
  }

  /** A conversation found by the search: shown here when it is this scope's, else the page moves to its scope. */
  function pick(found: ThreadResponse) {
    setSearching(false);
    if (scoped.some((t) => t.id === found.id)) choose(found.id);
    else showThread(found);
  }

  const start = useMutation({ mutationFn: newConversation, onSuccess: showAnswer, onError: catchUp });

  const send = useMutation({
    mutationFn: (text: string) =>
      turn.run(text, async () => {
        if (opening.current) return (await opening.current).id;
        if (thread) return thread.id;
        const opened = await open();
        showAnswer(opened);
        return opened.id;
      }),
    onSuccess: showAnswer,
    onError: catchUp,
  });

  const stop = useMutation({ mutationFn: async () => turn.stop?.() });

  const remove = useMutation({
    mutationFn: deleteThread,
    onMutate: (threadId) => {
      deleting.current.add(threadId);
    },
    onSuccess: (_, threadId) => {
      forgetThread(queries, threadId);
      sessionStorage.removeItem(scopeKey);
      setChosen(null);
    },
    onError: (_, threadId) => {
      deleting.current.delete(threadId);
    },
  });

  const decideOne = useMutation({
    mutationFn: ({ threadId, proposal, decision }: { threadId: string; proposal: ProposalResponse; decision: 'accept' | 'reject' }) =>
      decide(threadId, proposal, decision),
    onSuccess: (answer, { proposal }) => {
      keepFocusAfterDecision(answer, proposal.id);
      showAnswer(answer);
    },
    onError: catchUp,
  });

  const decideAll = useMutation({
    mutationFn: ({ threadId, seen }: { threadId: string; seen: readonly string[] }) => acceptAll(threadId, seen),
    onSuccess: (answer) => {
      keepFocusAfterDecision(answer, null);
      showAnswer(answer);
    },
    onError: catchUp,
  });

  const deciding = decideOne.isPending || decideAll.isPending;
  /** What the panel says went wrong: the failure of the newest action, if it failed. */
  const newest = newestFailure(start, send, stop, remove, decideOne, decideAll);
  // A decision refused is said where the operator clicked: on the proposal's card, or at Accept all.
  const refusal = refusedDecision(newest, decideOne, decideAll.error);
  const failure = refusal ? null : newest;
  const where = [scope.project, scope.environment].filter(Boolean).join(' / ');
  return (
    <aside className="assistant-panel" id={PANEL_ID} role="region" aria-label="Assistant" hidden={hidden} ref={region}>
      <header>
        <h2>Assistant</h2>
        {agents.length === 0 && <span className="muted">{[status?.model, scope.environment].filter(Boolean).join(' · ')}</span>}
        <span className="spacer" />
        <button type="button" disabled={!canOpen} onClick={() => start.mutate()}>
          New conversation
        </button>
        <button type="button" className="hide-panel" aria-label="Hide assistant" title="Hide assistant" onClick={onHide}>
          ✕
        </button>
        {/* A row of its own under the buttons: the holder's name is read whole, also in a narrow panel. */}
        {agents.length > 0 && <HolderPicker status={status} agents={agents} value={holderChoice} onChange={setPicked} />}
      </header>
      <UnsandboxedWarning agents={agents} value={holderChoice} />
      {status && !status.configured && !canSend && <p className="notice">{status.sentence}</p>}
      {gone && (
        <p className="notice" role="status">
          {gone}
        </p>
      )}
      {(threads.data ?? []).length > 0 && (
        <ThreadBar
          thread={thread}
          listed={pickable(scoped, thread)}
          onChoose={choose}
          onRenamed={showAnswer}
          onDelete={() => thread && remove.mutate(thread.id)}
          searching={searching}
          onSearching={setSearching}
        />
      )}
      {thread && (
        <div className="thread-holder small">
          <span className={thread.agent ? 'holder agent' : 'holder'}>
            with <strong>{thread.agent ? agentTitle(thread.agent) : builtInTitle(status)}</strong>
            {/* Not a second role chip: whose permissions what is accepted here runs with. */}
            <span title="What you accept here runs with your permissions in this thread's project">, you as {thread.role}</span>
          </span>
          <UsageNote threadId={thread.id} />
          {thread.agent && <AgentOptionsBar thread={thread} />}
          {/* An agent-held thread already gives its agent the session credential. */}
          {!thread.agent && <ConnectAgent threadId={thread.id} />}
        </div>
      )}
      {searching ? (
        <ThreadSearch threads={threads.data ?? []} shownId={thread?.id ?? null} onPick={pick} onClose={() => setSearching(false)} />
      ) : (
        <ThreadView
          thread={thread}
          holder={holder}
          running={turn.shown}
          onStop={turn.stop ? () => stop.mutate() : null}
          deciding={deciding}
          onDecide={(proposal, decision) => thread && decideOne.mutate({ threadId: thread.id, proposal, decision })}
          onAcceptAll={(seen) => thread && decideAll.mutate({ threadId: thread.id, seen })}
          refusal={refusal}
          revealWaiting={revealWaiting}
        />
      )}
      {failure && (
        <p role="alert" className="error panel-error">
          {failure.message}
        </p>
      )}
      <footer>
        <MessageBox
          placeholder={`${heldBy ? `Ask ${holder}` : 'Ask'} about ${where || 'your projects'}…`}
          busy={turn.shown !== null}
          disabled={!canSend}
          onSend={(text) => send.mutateAsync(text).then(() => true, () => false)}
        >
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={sharing}
              aria-checked={sharing}
              onChange={(e) => setSharing(e.target.checked)}
            />
            Share context
          </label>
        </MessageBox>
      </footer>
    </aside>
  );
}

/** Where a refused decision (409) is said: at the proposal's card (`at` its id) or at Accept all (`at` null); null when none was refused. */
function refusedDecision(
  newest: Error | null,
  one: { error: Error | null; variables: { proposal: ProposalResponse } | undefined },
  all: Error | null,
): DecisionRefusal | null {
  if (!(newest instanceof ApiError) || newest.status !== 409) return null;
  if (newest === one.error && one.variables) return { at: one.variables.proposal.id, message: newest.message };
  if (newest === all) return { at: null, message: newest.message };
  return null;
}
