// The top bar's count of conversations waiting for a decision, leading to
// them: one goes straight to its conversation, several open a list of them.
import { useRef } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import { useShowThread } from '../assistant/showThread';
import { useWaitingThreads } from '../assistant/useWaitingThreads';

const where = (thread: ThreadResponse) => [thread.project, thread.project ? thread.environment : null].filter(Boolean).join(' / ') || 'no project';

export function WaitingCount() {
  const waiting = useWaitingThreads();
  const show = useShowThread();
  const list = useRef<HTMLDetailsElement>(null);
  const [first] = waiting;
  if (!first) return null;
  const label = (
    <>
      <span className="count">{waiting.length}</span>
      {/* The words stay in the name on a narrow screen, where only the number shows. */}
      <span className="narrow-hidden"> {waiting.length === 1 ? 'conversation' : 'conversations'}</span> waiting
    </>
  );
  if (waiting.length === 1) {
    return (
      <button type="button" className="waiting" title={`A proposal waits in “${first.title || 'New conversation'}” (${where(first)})`} onClick={() => show(first)}>
        {label}
      </button>
    );
  }
  return (
    <details className="waiting-list" ref={list}>
      <summary className="waiting">{label}</summary>
      <ul>
        {waiting.map((thread) => (
          <li key={thread.id}>
            <button
              type="button"
              onClick={() => {
                if (list.current) list.current.open = false;
                show(thread);
              }}
            >
              {thread.title || 'New conversation'} <span className="muted small">{where(thread)}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
