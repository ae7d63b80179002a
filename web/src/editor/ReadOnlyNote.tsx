// Beside a read-only editor, why it is read-only, in the server's words
// (the text's own description points here).
export function ReadOnlyNote({ id, reason }: { id: string; reason: string }) {
  return (
    <p id={id} className="read-only-note" role="note">
      <strong>Read only.</strong> You can read, search and copy this document but not change it: {reason}.
    </p>
  );
}
