// The top bar's count of conversations waiting for a decision, leading to
// them: one goes straight to its conversation, several open a list of them.
// A conversation whose waiting proposals are all stale (DESIGN.md §14) still
// waits on its operator — to reject them or ask again — but nothing there
// would run as shown: the count says how many are so ("2 conversations
// waiting · 1 stale"), and each says why where it is named.
import { useRef } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import { useShowThread } from '../assistant/showThread';
import { onlyStale, useWaitingThreads, waitingOf } from '../assistant/useWaitingThreads';

const where = (thread: ThreadResponse) => [thread.project, thread.project ? thread.environment : null].filter(Boolean).join(' / ') || 'no project';
const titleOf = (thread: ThreadResponse) => thread.title || 'New conversation';

/** What waits in the conversation, in a sentence: the reason when it is stale. */
function whatWaits(thread: ThreadResponse): string {
  const { count, stale, reason } = waitingOf(thread);
  const proposals = count === 1 ? 'the proposal' : `the ${count} proposals`;
  if (stale === 0) return `${count === 1 ? 'A proposal waits' : `${count} proposals wait`} in “${titleOf(thread)}” (${where(thread)})`;
  if (stale < count) return `${count} proposals wait in “${titleOf(thread)}” (${where(thread)}); ${stale} of them stale: ${reason ?? ''}`;
  return `Stale: ${proposals} waiting in “${titleOf(thread)}” (${where(thread)}) can no longer run as shown — ${reason ?? ''}. Reject or ask again.`;
}

export function WaitingCount() {
  const waiting = useWaitingThreads();
  const show = useShowThread();
  const list = useRef<HTMLDetailsElement>(null);
  const [first] = waiting;
  if (!first) return null;
  const stale = waiting.filter(onlyStale).length;
  const label = (
    <>
      <span className="count">{waiting.length}</span>
      {/* The words stay in the name on a narrow screen, where only the number shows. */}
      <span className="narrow-hidden"> {waiting.length === 1 ? 'conversation' : 'conversations'}</span> waiting
      {stale > 0 && <span className="stale-count"> · {stale} stale</span>}
    </>
  );
  // Nothing that waits would run as shown: the count steps back from the accent it has when a decision is due.
  const className = stale === waiting.length ? 'waiting all-stale' : 'waiting';
  if (waiting.length === 1) {
    return (
      <button type="button" className={className} title={whatWaits(first)} onClick={() => show(first)}>
        {label}
      </button>
    );
  }
  return (
    <details className="waiting-list" ref={list}>
      <summary className={className}>{label}</summary>
      <ul>
        {waiting.map((thread) => {
          const { count, stale: staleHere, reason } = waitingOf(thread);
          return (
            <li key={thread.id}>
              <button
                type="button"
                title={whatWaits(thread)}
                onClick={() => {
                  if (list.current) list.current.open = false;
                  show(thread);
                }}
              >
                <span className="waiting-item">
                  <span>
                    {titleOf(thread)} {staleHere > 0 && <span className="status stale">{staleHere === count ? 'stale' : `${staleHere} of ${count} stale`}</span>}
                  </span>
                  {reason && <span className="waiting-reason muted small">{reason}</span>}
                </span>
                <span className="muted small">{where(thread)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
