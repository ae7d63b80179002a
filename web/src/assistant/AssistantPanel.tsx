// The assistant panel, on every page: the status sentence when no model is
// set up; the threads of this project and environment, held by the built-in
// assistant or an ACP agent; the open thread's messages with their proposals,
// a running turn as it streams (with Stop); the message box and the Share
// context switch.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../api/client';
import { useAgents, useAssistantStatus } from '../api/queries';
import type { Proposal, Thread } from '../api/types';
import type { Scope } from '../scope';
import { ConnectAgent } from './ConnectAgent';
import { BUILT_IN, builtInTitle, HolderPicker, UnsandboxedWarning } from './HolderPicker';
import { MessageBox } from './MessageBox';
import { ThreadView } from './ThreadView';
import { acceptAll, decide, openThread, useThreadUpdate, useThreads } from './threads';
import { UsageNote } from './UsageNote';
import { useContextSharing } from './useContextSharing';
import { useRunningTurn } from './useRunningTurn';

export function AssistantPanel({ scope }: { scope: Scope }) {
  const status = useAssistantStatus().data;
  const agents = useAgents().data ?? [];
  const threads = useThreads();
  const update = useThreadUpdate();
  const [location] = useLocation();
  const scoped = (threads.data ?? []).filter(
    (t) => (t.project ?? undefined) === scope.project && (!scope.project || t.environment === scope.environment),
  );
  const scopeKey = `aion.thread.${scope.project ?? ''}.${scope.environment ?? ''}`;
  const [chosen, setChosen] = useState<string | null>(() => sessionStorage.getItem(scopeKey));
  useEffect(() => {
    setChosen(sessionStorage.getItem(scopeKey));
  }, [scopeKey]);
  const thread = scoped.find((t) => t.id === chosen) ?? scoped[0] ?? null;
  const [sharing, setSharing] = useState(true);
  const turn = useRunningTurn();
  const [sentence, setSentence] = useState('');
  const [deciding, setDeciding] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  /** Counts the messages refused because a proposal waits: each brings the waiting card into view. */
  const [revealWaiting, setRevealWaiting] = useState(0);
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
  }

  async function act(action: () => Promise<Thread>): Promise<boolean> {
    setSentence('');
    try {
      const answer = await action();
      update(answer);
      choose(answer.id);
      return true;
    } catch (error) {
      setSentence(error instanceof ApiError || error instanceof Error ? error.message : String(error));
      if (error instanceof ApiError && error.status === 409) setRevealWaiting((n) => n + 1);
      return false;
    }
  }

  /** A conversation being opened: a message sent meanwhile goes to it, not to the one shown before. */
  const opening = useRef<Promise<Thread> | null>(null);
  function open(): Promise<Thread> {
    const opened = openThread(scope.project, scope.environment, location, holderChoice === BUILT_IN ? null : holderChoice);
    opening.current = opened;
    const settled = () => {
      if (opening.current === opened) opening.current = null;
    };
    opened.then(settled, settled);
    return opened;
  }

  function send(text: string): Promise<boolean> {
    return act(() =>
      turn.run(text, async () => {
        if (opening.current) return (await opening.current).id;
        if (thread) return thread.id;
        const opened = await open();
        update(opened);
        choose(opened.id);
        return opened.id;
      }),
    );
  }

  async function stop(cancel: () => Promise<void>) {
    try {
      await cancel();
    } catch (error) {
      setSentence(error instanceof Error ? error.message : String(error));
    }
  }

  async function decideOne(proposal: Proposal, decision: 'accept' | 'reject') {
    if (!thread) return;
    setDeciding(true);
    await act(() => decide(thread.id, proposal.id, decision));
    setDeciding(false);
  }

  async function decideAll() {
    if (!thread) return;
    setDeciding(true);
    await act(() => acceptAll(thread.id));
    setDeciding(false);
  }

  const cancel = turn.stop;
  const where = [scope.project, scope.environment].filter(Boolean).join(' / ');
  return (
    <aside className="assistant" role="region" aria-label="Assistant">
      <header>
        <h2>Assistant</h2>
        {agents.length > 0 ? (
          <HolderPicker status={status} agents={agents} value={holderChoice} onChange={setPicked} />
        ) : (
          <span className="muted">{[status?.model, scope.environment].filter(Boolean).join(' · ')}</span>
        )}
        <span className="spacer" />
        <button type="button" disabled={!canOpen} onClick={() => void act(open)}>
          New conversation
        </button>
      </header>
      <UnsandboxedWarning agents={agents} value={holderChoice} />
      {status && !status.configured && !canSend && <p className="notice">{status.sentence}</p>}
      {thread && (
        <div className="thread-bar">
          {scoped.length > 1 ? (
            <label>
              <span className="visually-hidden">Conversation</span>
              <select value={thread.id} onChange={(e) => choose(e.target.value)}>
                {scoped.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.title || 'New conversation'}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span className="muted small title">{thread.title || 'New conversation'}</span>
          )}
          {/* An agent-held thread already gives its agent the session credential. */}
          {!thread.agent && <ConnectAgent threadId={thread.id} />}
        </div>
      )}
      {thread && (
        <div className="thread-holder small">
          <span className={thread.agent ? 'holder agent' : 'holder'}>
            with <strong>{thread.agent ? agentTitle(thread.agent) : builtInTitle(status)}</strong>
          </span>
          <UsageNote threadId={thread.id} />
        </div>
      )}
      <ThreadView
        thread={thread}
        holder={holder}
        pending={turn.pending}
        live={turn.live}
        onStop={cancel ? () => void stop(cancel) : null}
        deciding={deciding}
        onDecide={(p, d) => void decideOne(p, d)}
        onAcceptAll={() => void decideAll()}
        revealWaiting={revealWaiting}
      />
      {sentence && (
        <p role="alert" className="error panel-error">
          {sentence}
        </p>
      )}
      <footer>
        <MessageBox
          placeholder={`${heldBy ? `Ask ${holder}` : 'Ask'} about ${where || 'your projects'}…`}
          busy={turn.pending !== null}
          disabled={!canSend}
          onSend={send}
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
          {thread && <span className="chip role" title="Your role in this thread's project">{thread.role}</span>}
        </MessageBox>
      </footer>
    </aside>
  );
}
