// The assistant panel, on every page: the status sentence when no model is
// set up; the threads of this project and environment, held by the built-in
// assistant or an ACP agent (renamed, deleted, searched; an empty one reused
// by "New conversation"); the open thread's messages with their proposals,
// a running turn as it streams (with Stop), also one started elsewhere; the
// message box and the Share context switch. Each region is its own component
// (PanelHeader, ThreadBar, ThreadHolder, ThreadView, Composer); this one holds
// the state they share and the actions on the conversation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../api/client';
import { useAgents, useAssistantStatus } from '../api/queries';
import type { ThreadResponse } from '../../../src/wire/thread';
import { PANEL_ID } from '../layout/useDrawer';
import type { Scope } from '../scope';
import { newestFailure } from '../ui/useAction';
import { Composer } from './Composer';
import { BUILT_IN, UnsandboxedWarning } from './HolderPicker';
import { PanelHeader } from './PanelHeader';
import { pickable, reusableThread } from './reusableThread';
import { ThreadBar } from './ThreadBar';
import { ThreadHolder } from './ThreadHolder';
import { ThreadSearch } from './ThreadSearch';
import { threadTitle } from './threadTitle';
import { ThreadView } from './ThreadView';
import { useShowThread, useThreadShown } from './showThread';
import { useThreadDeleted } from './threadChanges';
import { deleteThread, forgetThread, openThread, refreshThread, useThreadUpdate, useThreads } from './threads';
import { refusedDecision, useDecisions } from './useDecisions';
import { useChosenThread } from './useChosenThread';
import { useHolder } from './useHolder';
import { useContextSharing } from './useContextSharing';
import { useRunningTurn } from './useRunningTurn';
import './assistant.css';

interface Props {
  scope: Scope;
  /** Collapsed, or a closed drawer: the panel stays mounted, so a running turn is still followed. */
  hidden: boolean;
  onHide: () => void;
  /** The handle that resizes the panel: inside its region, so it sits in a landmark. */
  resizer?: ReactNode;
}

export function AssistantPanel({ scope, hidden, onHide, resizer }: Props) {
  const queries = useQueryClient();
  const status = useAssistantStatus().data;
  const agents = useAgents().data ?? [];
  const threads = useThreads();
  const update = useThreadUpdate();
  const [location] = useLocation();
  const inScope = (t: ThreadResponse) => (t.project ?? undefined) === scope.project && (!scope.project || t.environment === scope.environment);
  const scoped = (threads.data ?? []).filter(inScope);
  const { thread, chosen, gone, choose, shown, forget, deletedElsewhere } = useChosenThread(scope, scoped);
  const [sharing, setSharing] = useState(true);
  const turn = useRunningTurn(thread);
  /** Counts the messages refused because a proposal waits: each brings the waiting card into view. */
  const [revealWaiting, setRevealWaiting] = useState(0);
  const [searching, setSearching] = useState(false);
  const showThread = useShowThread();
  /** The conversations this tab is deleting: the change stream's word of it is no news here. */
  const deleting = useRef(new Set<string>());
  useContextSharing(thread?.id ?? null, sharing);

  const held = useHolder(status, agents, thread);
  const { holderChoice, setPicked, agentTitle, heldBy, holder } = held;
  // Until the page's environment is known, a conversation opened or a message sent would land in no environment.
  const canOpen = held.canOpen && scope.settled;
  const canSend = held.canSend && scope.settled;

  // Asked for from the top bar: the scope's panel reads the same choice from storage when the page moved.
  const region = useRef<HTMLElement>(null);
  useThreadShown((id) => {
    shown(id);
    setRevealWaiting((n) => n + 1);
    requestAnimationFrame(() => region.current?.querySelector<HTMLElement>('[role=log]')?.focus());
  });

  useThreadDeleted((id) => {
    // The operator's choice counts too: the list, read again before this word came, may already lack it (and its title).
    if ((id !== thread?.id && id !== chosen) || deleting.current.has(id)) return;
    deletedElsewhere(
      thread?.id === id ? `The conversation “${threadTitle(thread)}” was deleted elsewhere.` : 'The conversation you had open was deleted elsewhere.',
    );
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
      forget();
    },
    onError: (_, threadId) => {
      deleting.current.delete(threadId);
    },
  });

  const { decideOne, decideAll, deciding } = useDecisions(showAnswer, catchUp);
  /** What the panel says went wrong: the failure of the newest action, if it failed. */
  const newest = newestFailure(start, send, stop, remove, decideOne, decideAll);
  // A decision refused is said where the operator clicked: on the proposal's card, or at Accept all.
  const refusal = refusedDecision(newest, decideOne, decideAll.error);
  const failure = refusal ? null : newest;
  const where = [scope.project, scope.environment].filter(Boolean).join(' / ');
  return (
    <aside className="assistant-panel" id={PANEL_ID} role="region" aria-label="Assistant" hidden={hidden} ref={region}>
      {resizer}
      <PanelHeader
        status={status}
        agents={agents}
        environment={scope.environment}
        holderChoice={holderChoice}
        onPick={setPicked}
        canOpen={canOpen}
        onNewConversation={() => start.mutate()}
        onHide={onHide}
      />
      <UnsandboxedWarning agents={agents} value={holderChoice} />
      {status && !status.configured && !held.canSend && <p className="notice">{status.sentence}</p>}
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
      {thread && <ThreadHolder thread={thread} status={status} agentTitle={agentTitle} />}
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
      <Composer
        placeholder={`${heldBy ? `Ask ${holder}` : 'Ask'} about ${where || 'your projects'}…`}
        busy={turn.shown !== null}
        disabled={!canSend}
        onSend={(text) => send.mutateAsync(text).then(() => true, () => false)}
        sharing={sharing}
        onSharing={setSharing}
      />
    </aside>
  );
}
