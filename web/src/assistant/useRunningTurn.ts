// The turn the panel is running: the operator's text, what the turn has done
// so far (followed over SSE before its POST goes), and its Stop. The POST's
// answer replaces all of it.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Thread } from '../api/types';
import { applyTurnEvent, followTurn, NO_PROGRESS, type LiveTurn } from './liveTurn';
import { cancelTurn, sendMessage } from './threads';

interface Running {
  text: string;
  live: LiveTurn;
  /** Set once the turn's POST is on its way; null again after Stop. */
  stoppable: string | null;
}

export interface RunningTurn {
  /** The text of the running turn's message, or null. */
  pending: string | null;
  live: LiveTurn | null;
  /** Cancels the running turn; null while it cannot be. */
  stop: (() => Promise<void>) | null;
  /** Sends `text` to the thread `target` gives, and resolves with the thread the turn leaves. */
  run: (text: string, target: () => Promise<string>) => Promise<Thread>;
}

export function useRunningTurn(): RunningTurn {
  const queries = useQueryClient();
  const [running, setRunning] = useState<Running | null>(null);

  async function run(text: string, target: () => Promise<string>): Promise<Thread> {
    setRunning({ text, live: NO_PROGRESS, stoppable: null });
    const follow = new AbortController();
    let threadId: string | null = null;
    try {
      threadId = await target();
      const id = threadId;
      // Listening first, so the turn's first event is not missed; a turn that cannot be followed still runs.
      await followTurn(id, (event) => setRunning((so) => so && { ...so, live: applyTurnEvent(so.live, event) }), follow.signal).catch(
        () => undefined,
      );
      setRunning((so) => so && { ...so, stoppable: id });
      return await sendMessage(id, text);
    } finally {
      follow.abort();
      setRunning(null);
      if (threadId) void queries.invalidateQueries({ queryKey: ['usage', threadId] });
    }
  }

  const threadId = running?.stoppable;
  const stop = threadId
    ? async () => {
        setRunning((so) => so && { ...so, stoppable: null });
        await cancelTurn(threadId);
      }
    : null;

  return { pending: running?.text ?? null, live: running?.live ?? null, stop, run };
}
