// How the assistant panel sits beside the page: its width and whether it is
// collapsed (remembered across visits: a preference, not a secret), and, on
// a narrow screen where it is a drawer over the page, whether that drawer is
// open (this page view only: a phone opens on the page, not the panel).
import { useSyncExternalStore } from 'react';

export interface PanelLayout {
  width: number;
  collapsed: boolean;
  drawerOpen: boolean;
}

export const PANEL_WIDTH = { min: 300, max: 640, initial: 368 };
/** Below this width the panel is a drawer (styles.css says the same). */
const NARROW = '(max-width: 899px)';
const KEY = 'aion.assistant-panel';

function remembered(): PanelLayout {
  const fallback = { width: PANEL_WIDTH.initial, collapsed: false, drawerOpen: false };
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<PanelLayout>;
    const width = typeof stored.width === 'number' ? clampWidth(stored.width) : fallback.width;
    return { ...fallback, width, collapsed: stored.collapsed === true };
  } catch {
    return fallback;
  }
}

let layout = remembered();
const listeners = new Set<() => void>();

function update(next: Partial<PanelLayout>): void {
  layout = { ...layout, ...next };
  localStorage.setItem(KEY, JSON.stringify({ width: layout.width, collapsed: layout.collapsed }));
  listeners.forEach((listener) => listener());
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(PANEL_WIDTH.max, Math.max(PANEL_WIDTH.min, width)));
}

export function usePanelLayout(): PanelLayout {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => layout,
  );
}

export function setPanelWidth(width: number): void {
  update({ width: clampWidth(width) });
}

/** Opens or closes the panel: the drawer on a narrow screen, the column otherwise. */
export function setPanelOpen(open: boolean): void {
  if (window.matchMedia(NARROW).matches) update({ drawerOpen: open });
  else update({ collapsed: !open });
}

/** Whether the screen is narrow enough for the panel to be a drawer. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => window.matchMedia(NARROW).matches,
  );
}

/** Whether the panel shows now, on this screen. */
export function usePanelOpen(): boolean {
  const { collapsed, drawerOpen } = usePanelLayout();
  return useNarrowScreen() ? drawerOpen : !collapsed;
}
