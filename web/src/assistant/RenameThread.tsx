// Renaming the conversation shown, in place of the picker: Enter or Rename
// saves, Escape or Cancel leaves the title as it was. Focus goes back to the
// button that started it. A rename that fails says why beside the field.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import { renameThread } from './threads';

const TITLE_MAX = 80;

interface Props {
  thread: ThreadResponse;
  /** The thread as the server renamed it. */
  onRenamed: (thread: ThreadResponse) => void;
  onDone: () => void;
}

export function RenameThread({ thread, onRenamed, onDone }: Props) {
  const [text, setText] = useState(thread.title);
  const given = text.replace(/\s+/g, ' ').trim();
  const rename = useMutation({
    mutationFn: (title: string) => renameThread(thread.id, title),
    onSuccess: (renamed) => {
      onRenamed(renamed);
      onDone();
    },
  });
  return (
    <form
      className="rename-thread"
      onSubmit={(e) => {
        e.preventDefault();
        if (given && !rename.isPending) rename.mutate(given);
      }}
    >
      <label className="visually-hidden" htmlFor="thread-title">
        Conversation title
      </label>
      <input
        id="thread-title"
        autoFocus
        value={text}
        maxLength={TITLE_MAX}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <button type="submit" className="primary" disabled={!given || rename.isPending}>
        Rename
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {rename.error && (
        <p role="alert" className="error small">
          {rename.error.message}
        </p>
      )}
    </form>
  );
}
