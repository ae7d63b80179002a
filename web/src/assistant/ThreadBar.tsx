// The conversation shown and what the operator does with it: pick another of
// this scope (empty ones are not listed: "New conversation" reuses them),
// rename it, delete it, or search every conversation.
import { useEffect, useId, useRef, useState } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import { PencilIcon, SearchIcon, TrashIcon } from '../ui/icons';
import { DeleteThread } from './DeleteThread';
import { RenameThread } from './RenameThread';
import { threadTitle } from './threadTitle';

/** The picker's value when no conversation is shown. */
export const NONE = '';

interface Props {
  thread: ThreadResponse | null;
  /** The conversations the picker offers. */
  listed: readonly ThreadResponse[];
  onChoose: (id: string) => void;
  /** The thread as the server renamed it. */
  onRenamed: (thread: ThreadResponse) => void;
  onDelete: () => void;
  searching: boolean;
  onSearching: (searching: boolean) => void;
}

export function ThreadBar({ thread, listed, onChoose, onRenamed, onDelete, searching, onSearching }: Props) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const pickerId = useId();
  const searchButton = useRef<HTMLButtonElement>(null);
  const wasSearching = useRef(searching);
  useEffect(() => {
    // Back from the search, focus returns to its button rather than to the page (a found conversation elsewhere focuses itself).
    if (wasSearching.current && !searching && document.activeElement === document.body) searchButton.current?.focus();
    wasSearching.current = searching;
  }, [searching]);
  if (thread && renaming) {
    return (
      <div className="thread-bar">
        <RenameThread
          thread={thread}
          onRenamed={onRenamed}
          onDone={() => {
            setRenaming(false);
            requestAnimationFrame(() => renameButton.current?.focus());
          }}
        />
      </div>
    );
  }
  return (
    <div className="thread-bar">
      {!thread && listed.length === 0 ? (
        <span className="title muted">No conversation here yet</span>
      ) : listed.length > 1 || !thread ? (
        // The label stands apart from the select: wrapped, its name would take in every title listed.
        <>
          <label className="visually-hidden" htmlFor={pickerId}>
            Conversation
          </label>
          <select id={pickerId} value={thread?.id ?? NONE} onChange={(e) => onChoose(e.target.value)}>
            {!thread && (
              <option value={NONE} disabled>
                Choose a conversation
              </option>
            )}
            {listed.map((t) => (
              <option key={t.id} value={t.id}>
                {threadTitle(t)}
              </option>
            ))}
          </select>
        </>
      ) : (
        <span className="title" title={threadTitle(thread)}>
          {threadTitle(thread)}
        </span>
      )}
      {thread && (
        <>
          <button type="button" className="icon-button" aria-label="Rename conversation" title="Rename conversation" ref={renameButton} onClick={() => setRenaming(true)}>
            <PencilIcon />
          </button>
          <button type="button" className="icon-button" aria-label="Delete conversation" title="Delete conversation" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
            <TrashIcon />
          </button>
        </>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label="Search conversations"
        title="Search conversations"
        aria-pressed={searching}
        ref={searchButton}
        onClick={() => onSearching(!searching)}
      >
        <SearchIcon />
      </button>
      {thread && deleting && (
        <DeleteThread
          thread={thread}
          onKeep={() => setDeleting(false)}
          onDelete={() => {
            setDeleting(false);
            onDelete();
          }}
        />
      )}
    </div>
  );
}
