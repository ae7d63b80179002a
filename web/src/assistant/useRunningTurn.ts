// The turn running in the open thread, as the panel shows it: one this tab
// sends (followed before its POST goes, so no event is missed), or one it
// finds running — after a reload, or sent from another tab or server —
// followed from its first event. Both go through one follow; it shows until
// the thread, read again, holds the turn's answer (both are stored at once).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { queryKeys } from '../api/queryKeys';
import type { ThreadResponse } from '../../../src/wire/thread';
import { applyTurnEvent, followTurn, NO_PROGRESS, type LiveTurn } from './liveTurn';
import { cancelTurn, newestMessageId, refreshThread, sendMessage } from './threads';

interface Running {
  /** Which follow this is, so one that finishes late never clears a newer one. */
  key: number;
  /** Null while this tab is still opening the conversation it sends to. */
  threadId: string | null;
  /** The operator's message sent from this tab; null for a turn found running. */
  text: string | null;
  /** The thread's newest stored message when the turn was sent or found: newer ones are the turn's. */
  sentAfter: number;
  /** When the turn started (ms since the epoch), for its elapsed time. */
  startedAt: number;
  live: LiveTurn;
  /** Whether Stop may be asked: the turn runs, and no Stop was asked from this tab yet. */
  stoppable: boolean;
  /** Whether the server knows the turn: one of its events came (a send's POST may still wait for a connection). */
  known: boolean;
}

/** What the panel shows of the open thread's running turn. */
export interface ShownTurn {
  /** The operator's message until the thread shows it stored. */
  message: string | null;
  live: LiveTurn;
  startedAt: number;
  /** False while a send has not been heard of by the server: the panel says it is not sent yet, never that it works. */
  known: boolean;
}

export interface RunningTurn {
  /** The open thread's running turn, or null. */
  shown: ShownTurn | null;
  /** Cancels the shown turn, wherever it runs; null while it cannot be. */
  stop: (() => Promise<void>) | null;
  /** Sends `text` to the thread `target` gives, and resolves with the thread the turn leaves. */
  run: (text: string, target: () => Promise<string>) => Promise<ThreadResponse>;
}

export function useRunningTurn(thread: ThreadResponse | null): RunningTurn {
  const queries = useQueryClient();
  const [running, setRunning] = useState<Running | null>(null);
  /** This tab's own sends on their way: a turn it finds meanwhile is its own, or about to refuse one. */
  const [sending, setSending] = useState(0);
  const keys = useRef(0);
  /** Turns this tab followed to their end: a thread read before one ended does not start it again. */
  const followedToEnd = useRef(new Set<string>());

  // These only set this hook's state, so they stay the same across renders (an effect that uses them never restarts for them).
  const begin = useCallback((start: Omit<Running, 'key' | 'live'>): number => {
    const key = ++keys.current;
    setRunning({ ...start, key, live: NO_PROGRESS });
    return key;
  }, []);
  const change = useCallback((key: number, next: (running: Running) => Running) => setRunning((so) => (so?.key === key ? next(so) : so)), []);
  const clear = useCallback((key: number) => setRunning((so) => (so?.key === key ? null : so)), []);

  /** The one path that follows a turn, for both kinds; resolves the turn's id as the events give it. */
  const follow = useCallback(
    (key: number, threadId: string, signal: AbortSignal, after: string | null = null) => {
      let turnId: string | null = null;
      const followed = followTurn(
        threadId,
        (event, id) => {
          turnId = id;
          change(key, (so) => ({ ...so, known: true, live: applyTurnEvent(so.live, event) }));
        },
        signal,
        after,
      );
      return { ...followed, turnId: () => turnId };
    },
    [change],
  );

  async function run(text: string, target: () => Promise<string>): Promise<ThreadResponse> {
    setSending((n) => n + 1);
    const key = begin({ threadId: null, text, sentAfter: 0, startedAt: Date.now(), stoppable: false, known: false });
    const stopFollowing = new AbortController();
    let threadId: string | null = null;
    try {
      threadId = await target();
      const id = threadId;
      change(key, (so) => ({ ...so, threadId: id, sentAfter: newestMessageId(queries, id) }));
      const followed = follow(key, id, stopFollowing.signal);
      // Listening first, so the turn's first event is not missed; a turn that cannot be followed still runs.
      await followed.listening.catch(() => undefined);
      change(key, (so) => ({ ...so, stoppable: true }));
      const answer = await sendMessage(id, text);
      const turnId = followed.turnId();
      if (turnId) followedToEnd.current.add(turnId);
      return answer;
    } finally {
      stopFollowing.abort();
      clear(key);
      setSending((n) => n - 1);
      if (threadId) void queries.invalidateQueries({ queryKey: queryKeys.usage(threadId) });
    }
  }

  // A turn of the open thread that this tab did not start: follow that turn (after its `started`, event 0), so
  // one that ended before the stream opened ends it at once instead of waiting for the next turn.
  const openId = thread?.id ?? null;
  const foundTurn = thread?.turn?.id ?? null;
  const foundStartedAt = thread?.turn?.started_at ?? null;
  useEffect(() => {
    if (!openId || !foundTurn || sending > 0 || followedToEnd.current.has(foundTurn)) return;
    const stopFollowing = new AbortController();
    // The server's clock: bounded by this one's, so the elapsed time never starts below zero.
    const startedAt = Math.min(Date.parse(foundStartedAt ?? '') || Date.now(), Date.now());
    const key = begin({ threadId: openId, text: null, sentAfter: newestMessageId(queries, openId), startedAt, stoppable: true, known: true });
    void follow(key, openId, stopFollowing.signal, `${foundTurn}:0`)
      .done.then(async () => {
        if (stopFollowing.signal.aborted) return;
        followedToEnd.current.add(foundTurn);
        // The answer is stored: the thread is read again before the live view goes, so nothing blinks.
        await refreshThread(queries, openId);
      })
      .finally(() => clear(key));
    return () => stopFollowing.abort();
  }, [openId, foundTurn, foundStartedAt, sending, queries, begin, follow, clear]);

  // Once the thread shows no turn running and messages newer than the turn's start, it holds the answer.
  const stored = (of: Running) => thread !== null && thread.id === of.threadId && thread.messages.some((m) => m.id > of.sentAfter);
  const mine = running && (running.threadId === null || running.threadId === openId) && !(stored(running) && thread?.turn === null) ? running : null;
  const shown: ShownTurn | null = mine && {
    message: mine.text !== null && !stored(mine) ? mine.text : null,
    live: mine.live,
    startedAt: mine.startedAt,
    // Where no stream carries the turn's events, the thread read again says the server runs it.
    known: mine.known || (thread?.id === mine.threadId && thread.turn !== null),
  };
  // A Stop asked from another tab shows here too: the thread says its turn is cancelling.
  const cancellable = mine?.stoppable && mine.threadId && !thread?.turn?.cancelling ? { key: mine.key, threadId: mine.threadId } : null;
  const stop = cancellable
    ? async () => {
        change(cancellable.key, (so) => ({ ...so, stoppable: false }));
        await cancelTurn(cancellable.threadId);
      }
    : null;

  return { shown, stop, run };
}
