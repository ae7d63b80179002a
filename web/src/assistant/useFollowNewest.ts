// A conversation follows its newest message: while the operator is at (or
// near) the bottom, anything that grows the thread (a message, a streamed
// delta, a card whose diff loads, the running-turn line) keeps it there; once
// they scroll up it stays put, and `unseen` says something new came below.
// Opening another thread starts at its newest message.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom still counts as "at the bottom", in pixels. */
const NEAR = 48;

export interface FollowNewest {
  scroller: RefObject<HTMLDivElement | null>;
  content: RefObject<HTMLDivElement | null>;
  /** Something new arrived below while the operator was scrolled up. */
  unseen: boolean;
  /** Scrolls to the newest and follows again; `focus` moves focus into the thread (the pill that asked disappears). */
  toNewest: (focus?: boolean) => void;
  /** Brings an element of the thread into view (the operator asked for it: following stops until they are back at the bottom). */
  reveal: (element: Element) => void;
}

/**
 * `thread`: which conversation is shown (a new one starts at its bottom);
 * `progress`: changes whenever something new is added (messages, proposals,
 * the running turn and its deltas).
 */
export function useFollowNewest(thread: string | null, progress: string): FollowNewest {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [unseen, setUnseen] = useState(false);
  // Another thread has seen nothing new yet.
  const [shownThread, setShownThread] = useState(thread);
  if (shownThread !== thread) {
    setShownThread(thread);
    setUnseen(false);
  }

  /** Where the thread last scrolled itself: a scroll event that finds it no higher was not the operator's. */
  const followedTo = useRef(0);

  const toBottom = useCallback(() => {
    const box = scroller.current;
    if (!box) return;
    box.scrollTop = box.scrollHeight;
    followedTo.current = box.scrollTop;
  }, []);

  /**
   * Whether the thread still follows, read off where it is now: the operator's
   * scrolling decides. Content that grew between the thread's own scroll and
   * its event (a card's diff loading) leaves it short of the bottom without
   * anyone scrolling up. Read before each follow too, not only on the scroll
   * event: an update that lands between the operator's scroll and its event
   * would otherwise pull them back down.
   */
  const stillFollowing = useCallback((box: HTMLDivElement): boolean => {
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight <= NEAR;
    const movedUp = box.scrollTop < followedTo.current - 1;
    pinned.current = atBottom || (pinned.current && !movedUp);
    if (atBottom) followedTo.current = box.scrollTop;
    return pinned.current;
  }, []);

  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const onScroll = () => {
      if (stillFollowing(box)) setUnseen(false);
    };
    box.addEventListener('scroll', onScroll, { passive: true });
    return () => box.removeEventListener('scroll', onScroll);
  }, [stillFollowing]);

  // Growth of the content (or a smaller panel) keeps a following thread at its bottom.
  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner) return;
    const observer = new ResizeObserver(() => {
      if (stillFollowing(box)) toBottom();
    });
    observer.observe(inner);
    observer.observe(box);
    return () => observer.disconnect();
  }, [stillFollowing, toBottom]);

  // Another thread opens at its newest message.
  useLayoutEffect(() => {
    pinned.current = true;
    toBottom();
  }, [thread, toBottom]);

  // Something new: follow it, or say it came.
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const box = scroller.current;
    if (!box) return;
    if (stillFollowing(box)) toBottom();
    else setUnseen(true);
  }, [progress, stillFollowing, toBottom]);

  const toNewest = useCallback(
    (focus = false) => {
      pinned.current = true;
      setUnseen(false);
      toBottom();
      if (focus) scroller.current?.focus({ preventScroll: true });
    },
    [toBottom],
  );

  // Only the thread scrolls: scrollIntoView would scroll every box around it, the page's too.
  const reveal = useCallback((element: Element) => {
    pinned.current = false;
    const box = scroller.current;
    if (box) box.scrollTop += element.getBoundingClientRect().top - box.getBoundingClientRect().top;
  }, []);

  return { scroller, content, unseen, toNewest, reveal };
}
