// A modal dialog on the native <dialog>: focus moves in, Escape closes it.
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // A close event comes a task after the dialog closed: by then it may be open again for the next question,
  // which that late event must not dismiss.
  const closed = () => {
    if (!ref.current?.open) onClose();
  };
  return (
    <dialog ref={ref} aria-label={title} onClose={closed} className="dialog">
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}
