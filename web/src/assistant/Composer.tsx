// The panel's footer: the message box, saying who is asked about what, and
// the Share context switch.
import { MessageBox } from './MessageBox';

interface Props {
  placeholder: string;
  busy: boolean;
  disabled: boolean;
  onSend: (text: string) => Promise<boolean>;
  sharing: boolean;
  onSharing: (sharing: boolean) => void;
}

export function Composer({ placeholder, busy, disabled, onSend, sharing, onSharing }: Props) {
  return (
    <footer>
      <MessageBox placeholder={placeholder} busy={busy} disabled={disabled} onSend={onSend}>
        <label className="switch">
          <input type="checkbox" role="switch" checked={sharing} aria-checked={sharing} onChange={(e) => onSharing(e.target.checked)} />
          Share context
        </label>
      </MessageBox>
    </footer>
  );
}
