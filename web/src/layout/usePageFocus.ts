// On each route change (not the first load), the keyboard focus moves to the
// new page's heading: it would otherwise drop to the body, and a screen
// reader says nothing. A page still loading shows its heading a moment later
// (the editor, its document): the focus waits for it, and lands on the page
// itself only if none comes, or not at all once the operator has moved it.
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

export const PAGE_ID = 'page';
/** How long a route change waits for its page's heading before focusing the page itself. */
const HEADING_WAIT_MS = 3000;

function focusHere(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

function pageAndHeading(): { page: HTMLElement | null; heading: HTMLElement | null } {
  const page = document.getElementById(PAGE_ID);
  return { page, heading: page?.querySelector<HTMLElement>('h1') ?? null };
}

/** Focuses the page's heading (or the page), keeping the panes where they are. */
export function focusPage(): void {
  const { page, heading } = pageAndHeading();
  const target = heading ?? page;
  if (target) focusHere(target);
}

/** Focuses the page's heading once it shows; answers a function that gives up waiting. */
function focusPageWhenShown(): () => void {
  const from = document.activeElement;
  const started = performance.now();
  let frame = requestAnimationFrame(function attempt() {
    // The operator moved the focus themselves (a link that went away leaves it on the body).
    if (document.activeElement !== from && document.activeElement !== document.body) return;
    const { page, heading } = pageAndHeading();
    if (heading) return focusHere(heading);
    if (performance.now() - started < HEADING_WAIT_MS) return void (frame = requestAnimationFrame(attempt));
    if (page) focusHere(page);
  });
  return () => cancelAnimationFrame(frame);
}

export function usePageFocus(): void {
  const [location] = useLocation();
  // The location the focus was last moved for: a first load, or a shell mounted again at the same place, moves nothing.
  const shown = useRef(location);
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    return focusPageWhenShown();
  }, [location]);
}
