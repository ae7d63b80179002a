// Searching every conversation of the operator, in place of the one shown:
// each found one with its title, where and when, how long, and the words
// around the match; choosing one shows it (moving to its project and environment when
// they are not this page's). Escape goes back to the conversation.
import { useId, useMemo, useState } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import { shortTime } from '../ui/time';
import { searchThreads } from './searchThreads';
import { threadTitle } from './threadTitle';

interface Props {
  threads: readonly ThreadResponse[];
  /** The conversation the panel shows, marked in the list. */
  shownId: string | null;
  onPick: (thread: ThreadResponse) => void;
  onClose: () => void;
}

export function ThreadSearch({ threads, shownId, onPick, onClose }: Props) {
  const [query, setQuery] = useState('');
  const found = useMemo(() => searchThreads(threads, query), [threads, query]);
  const countId = useId();
  return (
    <section className="thread-search" aria-label="Search conversations">
      <input
        type="search"
        autoFocus
        aria-label="Search conversations"
        aria-describedby={countId}
        placeholder="Search titles and messages…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      />
      <p id={countId} className="muted small" role="status">
        {found.length === 0 ? (query.trim() ? `No conversation has “${query.trim()}”.` : 'No conversation yet.') : foundSentence(found.length, query)}
      </p>
      <ul className="found" aria-label="Conversations found">
        {found.map(({ thread, excerpt }) => (
          <li key={thread.id}>
            <button type="button" aria-current={thread.id === shownId ? 'true' : undefined} onClick={() => onPick(thread)}>
              <span className="found-title">{threadTitle(thread)}</span>
              <span className="found-where muted">
                {[thread.project, thread.environment].filter(Boolean).join(' / ') || 'no project'} · {shortTime(thread.updated_at)} ·{' '}
                {thread.messages.length === 1 ? '1 message' : `${thread.messages.length} messages`}
                {thread.id === shownId && ' · shown now'}
              </span>
              {excerpt && (
                <span className="found-excerpt muted">
                  {excerpt.before}
                  <mark>{excerpt.match}</mark>
                  {excerpt.after}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function foundSentence(count: number, query: string): string {
  const conversations = count === 1 ? '1 conversation' : `${count} conversations`;
  return query.trim() ? `${conversations} found` : `${conversations}, newest first`;
}
