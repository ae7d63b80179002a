// The tab's one stream of what changes for its operator (GET /api/v1/changes):
// a browser holds six connections to a host, so every follower shares it.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keepEventStream } from './keptStream';

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

/** Opens the stream while `token` is signed in (a new operator, a new stream). */
export function useChangeStream(token: string | null, followers: readonly ChangeFollower[]): void {
  const queries = useQueryClient();
  useEffect(() => {
    if (!token) return;
    const stop = new AbortController();
    const readAll = () => followers.forEach((f) => f.readAll(queries));
    keepEventStream(
      '/api/v1/changes',
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
