// The assistant panel, on every page: the status sentence when no model is
// set up; the threads of this project and environment; the open thread's
// messages with their proposals; the message box and the Share context switch.
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../api/client';
import { useAssistantStatus } from '../api/queries';
import type { Proposal, Thread } from '../api/types';
import type { Scope } from '../scope';
import { ConnectAgent } from './ConnectAgent';
import { MessageBox } from './MessageBox';
import { ThreadView } from './ThreadView';
import { acceptAll, decide, openThread, sendMessage, useThreadUpdate, useThreads } from './threads';
import { useContextSharing } from './useContextSharing';

export function AssistantPanel({ scope }: { scope: Scope }) {
  const status = useAssistantStatus().data;
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
  const [pending, setPending] = useState<string | null>(null);
  const [sentence, setSentence] = useState('');
  const [deciding, setDeciding] = useState(false);
  useContextSharing(thread?.id ?? null, sharing);

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
      return false;
    }
  }

  async function send(text: string): Promise<boolean> {
    setPending(text);
    try {
      return await act(async () => {
        const target = thread ?? (await openThread(scope.project, scope.environment, location));
        if (!thread) {
          update(target);
          choose(target.id);
        }
        return sendMessage(target.id, text);
      });
    } finally {
      setPending(null);
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

  const where = [scope.project, scope.environment].filter(Boolean).join(' / ');
  return (
    <aside className="assistant" role="region" aria-label="Assistant">
      <header>
        <h2>Assistant</h2>
        <span className="muted">{[status?.model, scope.environment].filter(Boolean).join(' · ')}</span>
        <span className="spacer" />
        <button
          type="button"
          disabled={!status?.configured}
          onClick={() => void act(() => openThread(scope.project, scope.environment, location))}
        >
          New conversation
        </button>
      </header>
      {status && !status.configured && <p className="notice">{status.sentence}</p>}
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
          <ConnectAgent threadId={thread.id} />
        </div>
      )}
      <ThreadView
        thread={thread}
        pending={pending}
        deciding={deciding}
        onDecide={(p, d) => void decideOne(p, d)}
        onAcceptAll={() => void decideAll()}
      />
      {sentence && (
        <p role="alert" className="error panel-error">
          {sentence}
        </p>
      )}
      <footer>
        <MessageBox
          placeholder={where ? `Ask about ${where}…` : 'Ask about your projects…'}
          busy={pending !== null}
          disabled={!status?.configured}
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
