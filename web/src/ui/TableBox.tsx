// A wide table's box: when the table cannot fit (a narrow window), it
// scrolls sideways inside the box instead of clipping or widening the page.
// The box is focusable so a keyboard can scroll it too.
import type { ReactNode } from 'react';
import './table-box.css';

export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
