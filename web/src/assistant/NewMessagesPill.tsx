// Shown over the bottom of a conversation the operator scrolled up in when
// something new arrives below; it scrolls down to it.
export function NewMessagesPill({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="new-messages" onClick={onClick}>
      <span aria-hidden="true">↓</span> New messages
    </button>
  );
}
