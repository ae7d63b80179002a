// The message box: 1–8000 characters, Enter sends, Shift+Enter breaks the
// line. The box empties as the message goes, so the next one can be typed
// while the turn runs; a send that fails puts its text back (unless the
// operator has typed something since).
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { OFFLINE_REASON, useServerReachable } from '../api/connection';

export const MAX_MESSAGE = 8000;
export const MESSAGE_BOX_ID = 'message';

interface Props {
  placeholder: string;
  busy: boolean;
  disabled: boolean;
  onSend: (text: string) => Promise<boolean>;
  children?: ReactNode;
}

export function MessageBox({ placeholder, busy, disabled, onSend, children }: Props) {
  const [text, setText] = useState('');
  const length = text.length;
  const valid = text.trim().length > 0 && length <= MAX_MESSAGE;
  // While the server is away the text can be typed and stays; it goes once the server is back.
  const reachable = useServerReachable();

  async function send() {
    if (!valid || busy || disabled || !reachable) return;
    setText('');
    if (!(await onSend(text))) setText((typed) => (typed === '' ? text : typed));
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <div className="message-box">
      <label htmlFor={MESSAGE_BOX_ID} className="visually-hidden">
        Message
      </label>
      <textarea
        id={MESSAGE_BOX_ID}
        rows={3}
        placeholder={placeholder}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={keyDown}
        aria-describedby="message-count"
      />
      <div className="message-actions">
        {children}
        <span id="message-count" className={length > MAX_MESSAGE ? 'counter over' : 'counter'}>
          {length} / {MAX_MESSAGE}
        </span>
        <button
          type="button"
          className="primary"
          onClick={() => void send()}
          disabled={!valid || busy || disabled || !reachable}
          title={reachable ? undefined : OFFLINE_REASON}
        >
          Send
        </button>
      </div>
    </div>
  );
}
