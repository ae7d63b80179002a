// The optional message of the next save, typed beside Save: kept with the
// revision, shown in the history and the audit. Enter saves, as Ctrl+S does.

/** The server's limit (write_document's `message`). */
const MESSAGE_LENGTH = 500;

interface Props {
  value: string;
  onChange: (message: string) => void;
  onSave: () => void;
  disabled: boolean;
}

export function SaveMessage({ value, onChange, onSave, disabled }: Props) {
  return (
    <input
      type="text"
      className="save-message"
      aria-label="Save message (optional)"
      placeholder="Message (optional)"
      maxLength={MESSAGE_LENGTH}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onSave();
        }
      }}
    />
  );
}
