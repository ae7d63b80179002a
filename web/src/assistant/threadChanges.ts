// What the tab does when the operator's threads change on any server (the
// `thread` events of GET /api/v1/changes): each notice reads that thread
// again, so an open thread and the thread list are current in every tab. A
// deleted thread is also told to whoever shows it.
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ThreadChange } from '../../../src/wire/thread-change';
import type { ChangeFollower } from '../api/changeStream';
import { forgetThread, refreshAllThreads, refreshThread, refreshWhatProposalsChange } from './threads';

const deletedListeners = new Set<(threadId: string) => void>();

export const threadChanges: ChangeFollower = {
  event: 'thread',
  changed: (queries: QueryClient, data: string) => {
    const change = JSON.parse(data) as ThreadChange;
    if (change.what === 'deleted') {
      deletedListeners.forEach((listener) => listener(change.thread));
      return forgetThread(queries, change.thread);
    }
    void refreshThread(queries, change.thread);
    if (change.what === 'decision') refreshWhatProposalsChange(queries);
  },
  missed: (queries) => refreshAllThreads(queries),
  readAll: (queries) => {
    refreshAllThreads(queries);
    refreshWhatProposalsChange(queries);
  },
};

/** Calls `onDeleted` with the id of each of the operator's threads deleted anywhere. */
export function useThreadDeleted(onDeleted: (threadId: string) => void): void {
  const latest = useRef(onDeleted);
  useEffect(() => {
    latest.current = onDeleted;
  });
  useEffect(() => {
    const listener = (threadId: string) => latest.current(threadId);
    deletedListeners.add(listener);
    return () => {
      deletedListeners.delete(listener);
    };
  }, []);
}
