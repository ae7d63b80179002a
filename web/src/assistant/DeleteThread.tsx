// Asking before a conversation goes for good, saying what goes with it.
// Keep is first, so Enter or Escape right away keeps it.
import type { ThreadResponse } from '../../../src/wire/thread';
import { Dialog } from '../ui/Dialog';
import { threadTitle } from './threadTitle';

interface Props {
  thread: ThreadResponse;
  onDelete: () => void;
  onKeep: () => void;
}

export function DeleteThread({ thread, onDelete, onKeep }: Props) {
  const count = thread.messages.length;
  return (
    <Dialog title="Delete this conversation?" open onClose={onKeep}>
      <p>
        “{threadTitle(thread)}” goes for good: {count === 1 ? 'its message' : `its ${count} messages`} and proposals, any secret value
        parked in it, and any change request it opened that still waits.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onKeep}>
          Keep
        </button>
        <button type="button" className="danger" onClick={onDelete}>
          Delete conversation
        </button>
      </div>
    </Dialog>
  );
}
