// The assistant as a drawer (narrow screens): Escape closes it; opening it
// moves the focus into its conversation, and closing it gives the focus back
// to the control that opened it (the Assistant button when that one is gone,
// as the waiting count is once nothing waits).
import { useEffect, useLayoutEffect } from 'react';
import { setPanelOpen } from './panelLayout';

/** The panel's id (the controls that open or resize it name it in aria-controls), and the Assistant button's. */
export const PANEL_ID = 'assistant';
export const TOGGLE_ID = 'assistant-toggle';

export function useDrawer(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // A dialog open in the drawer takes its own Escape.
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) setPanelOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  // A layout effect: the drawer is shown (or hidden) in this same commit, before the browser paints.
  useLayoutEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const drawer = document.getElementById(PANEL_ID);
    drawer?.querySelector<HTMLElement>('[role=log]')?.focus({ preventScroll: true });
    return () => {
      // Only focus lost with the drawer comes back (not when a wider window made the drawer a column).
      const focused = document.activeElement;
      const lost = !focused || focused === document.body || (drawer?.hidden === true && drawer.contains(focused));
      if (!lost) return;
      opener?.focus();
      if (document.activeElement !== opener) document.getElementById(TOGGLE_ID)?.focus();
    };
  }, [open]);
}
