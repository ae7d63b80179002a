// What changes for the tab's operator (the `changes` topic of the browser's
// one stream): every follower shares it.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followTopic } from './topics';

/** What one kind of change makes the tab read again. */
export interface ChangeFollower {
  /** The event it follows. */
  event: string;
  changed(queries: QueryClient, data: string): void;
  /** The stream opened: what changed before it listened (the page's first reads race it). */
  missed(queries: QueryClient): void;
  /** Notices may have been lost (`resync`, a reopened stream): everything is read again. */
  readAll(queries: QueryClient): void;
}

/** Follows the changes while `token` is signed in (a new operator, a new follow). */
export function useChangeStream(token: string | null, followers: readonly ChangeFollower[]): void {
  const queries = useQueryClient();
  useEffect(() => {
    if (!token) return;
    const stop = new AbortController();
    const readAll = () => followers.forEach((f) => f.readAll(queries));
    followTopic(
      'changes',
      {
        onEvent: ({ event, data }) => {
          if (event === 'resync') return readAll();
          followers.find((f) => f.event === event)?.changed(queries, data);
        },
        onOpen: (reopened) => (reopened ? readAll() : followers.forEach((f) => f.missed(queries))),
      },
      stop.signal,
    );
    return () => stop.abort();
  }, [token, queries, followers]);
}
