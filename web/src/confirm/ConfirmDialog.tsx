// The one confirmation for a change: what it does in words, what changes
// (a diff, the revision that comes back), and, on a protected environment,
// its name typed before the confirm button works. Focus stays inside while it
// is open, Escape cancels, Enter confirms only when every name matches, and
// focus goes back to the button that opened it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Dialog } from '../ui/Dialog';

interface Props {
  /** Names the environment(s), e.g. "Deploy to production". */
  title: string;
  open: boolean;
  /** The protected environments whose names must be typed; none: a plain confirmation. */
  names: string[];
  /** The confirm button's name ("Deploy", "Accept", "Rollback"…). */
  confirmLabel: string;
  /** One sentence: what confirming does. */
  question: ReactNode;
  /** What changes: a diff, the revision that comes back. */
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

export function ConfirmDialog({ title, open, names, confirmLabel, question, children, onConfirm, onClose }: Props) {
  const [typed, setTyped] = useState<string[]>([]);
  // Each opening starts with no name typed.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setTyped([]);
  }
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const matches = names.every((name, i) => typed[i] === name);

  // Before the dialog takes the focus (its showModal runs in an effect), note who had it;
  // give it back when the dialog closes or goes away.
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  useEffect(() => {
    if (!open) return;
    // The first field to fill (a name to type, a comment or reason asked for) takes the focus, an optional one never; with none, the confirm button.
    (form.current?.querySelector<HTMLElement>('input[type="text"], input:not([type]), textarea[required]') ?? confirmButton.current)?.focus();
    return () => {
      const back = opener.current;
      opener.current = null;
      // After the native dialog has closed: nothing outside it takes the focus while it is modal.
      setTimeout(() => {
        if (back?.isConnected && document.activeElement !== back) back.focus();
      });
    };
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!matches) return;
    onConfirm();
  }

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
  function trap(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Tab' || !form.current) return;
    const controls = [...form.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <form ref={form} className="confirm-form" onSubmit={submit} onKeyDown={trap}>
        <p className="confirm-question">{question}</p>
        {children && <div className="confirm-changes">{children}</div>}
        {names.map((name, i) => (
          <div key={name} className="confirm-name">
            <label htmlFor={`${id}-name-${i}`}>
              {names.length === 1 ? 'Environment name' : `Environment name (${name})`}
            </label>
            <input
              id={`${id}-name-${i}`}
              value={typed[i] ?? ''}
              onChange={(e) => setTyped((all) => names.map((_, j) => (j === i ? e.target.value : (all[j] ?? ''))))}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-hint`}
            />
          </div>
        ))}
        {names.length > 0 && (
          <p id={`${id}-hint`} className="muted small">
            Type {names.map((name, i) => (
              <span key={name}>
                {i > 0 && (i === names.length - 1 ? ' and ' : ', ')}
                <strong>{name}</strong>
              </span>
            ))}{' '}
            to confirm; {names.length === 1 ? 'it is a protected environment' : 'they are protected environments'}.
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button ref={confirmButton} type="submit" className="primary danger" disabled={!matches}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
