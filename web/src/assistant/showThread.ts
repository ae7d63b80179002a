// Showing one of the operator's conversations from anywhere (the top bar's
// waiting count): the page moves to the conversation's project and
// environment when they differ, the panel opens on it, and its waiting
// proposal comes into view.
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { ThreadResponse } from '../../../src/wire/thread';
import { setPanelOpen } from '../layout/panelLayout';
import { environmentHref, rememberEnvironment } from '../scope';

/** Where the panel keeps the conversation it shows in each project and environment (this tab only). */
export function chosenThreadKey(project: string | undefined, environment: string | undefined): string {
  return `aion.thread.${project ?? ''}.${environment ?? ''}`;
}

const shownListeners = new Set<(threadId: string) => void>();

export function useShowThread(): (thread: ThreadResponse) => void {
  const [location, navigate] = useLocation();
  return (thread) => {
    const project = thread.project ?? undefined;
    if (project) {
      rememberEnvironment(project, thread.environment);
      navigate(environmentHref(location, project, thread.environment));
    } else if (location.startsWith('/projects/')) {
      navigate('/');
    }
    // The panel of the scope moved to reads this as it opens; a panel already on that scope hears it below.
    sessionStorage.setItem(chosenThreadKey(project, project ? thread.environment : undefined), thread.id);
    shownListeners.forEach((listener) => listener(thread.id));
    setPanelOpen(true);
  };
}

/** Calls `onShown` with the id of each conversation asked to be shown. */
export function useThreadShown(onShown: (threadId: string) => void): void {
  const latest = useRef(onShown);
  useEffect(() => {
    latest.current = onShown;
  });
  useEffect(() => {
    const listener = (threadId: string) => latest.current(threadId);
    shownListeners.add(listener);
    return () => {
      shownListeners.delete(listener);
    };
  }, []);
}
