// On each route change (not the first load), the keyboard focus moves to the
// new page's heading, or to the page itself while its heading is not shown
// yet: it would otherwise drop to the body, and a screen reader says nothing.
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

export const PAGE_ID = 'page';

/** Focuses the page's heading (or the page), keeping the panes where they are. */
export function focusPage(): void {
  const page = document.getElementById(PAGE_ID);
  const heading = page?.querySelector<HTMLElement>('h1');
  const target = heading ?? page;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

export function usePageFocus(): void {
  const [location] = useLocation();
  // The location the focus was last moved for: a first load, or a shell mounted again at the same place, moves nothing.
  const shown = useRef(location);
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    // After the new page has rendered its heading.
    const frame = requestAnimationFrame(focusPage);
    return () => cancelAnimationFrame(frame);
  }, [location]);
}
