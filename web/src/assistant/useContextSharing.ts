// While a thread is open and "Share context" is on, the console tells the
// conversation what the operator sees (PUT …/context, debounced) and follows
// the thread's context (the `context:<thread>@<rev>` topic of the browser's one
// stream) for the agent's edit batches, which the open editor applies as transactions. A stale base revision (409) rebases the
// operator's edits onto the agent's text and sends again.
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, ApiError } from '../api/client';
import { followTopic } from '../api/topics';
import type { ContextView, SharedDocument } from '../../../src/wire/context';
import { currentScreen, onScreenChange } from '../screen';

const DEBOUNCE_MS = 300;
/** After a failed first read, the next try waits this long. */
const RETRY_MS = 2000;

interface Shared {
  revision: number;
  /** The document text at `revision`, as the server holds it. */
  text: string | null;
  path: string | null;
}

export function useContextSharing(threadId: string | null, sharing: boolean): void {
  const [location] = useLocation();
  const search = useSearch();
  const url = search ? `${location}?${search}` : location;
  const session = useRef<ContextSession | null>(null);

  useEffect(() => {
    if (!threadId) return;
    if (!sharing) {
      void api('PUT', contextPath(threadId), { shared: false }).catch(() => undefined);
      return;
    }
    const current = new ContextSession(threadId);
    session.current = current;
    return () => {
      current.stop();
      if (session.current === current) session.current = null;
    };
  }, [threadId, sharing]);

  // Shared a moment after the page or the screen last changed. The screen is followed outside React's renders:
  // each key typed changes it, and rendering the panel for each would cost every key.
  useEffect(() => {
    const current = session.current;
    if (!current) return;
    let timer = setTimeout(() => current.share(url), DEBOUNCE_MS);
    const stopFollowing = onScreenChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => current.share(url), DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      stopFollowing();
    };
  }, [url, threadId, sharing]);
}

function contextPath(threadId: string, query = ''): string {
  return `/api/v1/assistant/threads/${threadId}/context${query}`;
}

/** One thread's sharing: pushes and the waiting loop take turns, never overlap. */
class ContextSession {
  private readonly stopped = new AbortController();
  private shared: Shared | null = null;
  private queue: Promise<void> = Promise.resolve();
  private url = '';

  constructor(private readonly threadId: string) {
    void this.waitForAgent();
  }

  stop(): void {
    this.stopped.abort();
  }

  share(url: string): void {
    this.url = url;
    this.serially(() => this.push());
  }

  private serially(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch(() => undefined);
  }

  private async push(): Promise<void> {
    if (this.stopped.signal.aborted) return;
    const shared = this.shared ?? (await this.read());
    const { concepts, editor } = currentScreen();
    const document: SharedDocument | null = editor?.snapshot() ?? null;
    try {
      const view = await api<ContextView>(
        'PUT',
        contextPath(this.threadId),
        { shared: true, url: this.url, concepts, document, base_revision: shared.revision },
        this.stopped.signal,
      );
      this.remember(view);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      // The agent edited first: take its text under the operator's edits, then send again.
      const current = (error.body as { context: ContextView }).context;
      this.applyAgent(current);
      await this.push();
    }
  }

  private async read(): Promise<Shared> {
    this.remember(await api<ContextView>('GET', contextPath(this.threadId), undefined, this.stopped.signal));
    return this.shared ?? { revision: 0, text: null, path: null };
  }

  private remember(view: ContextView): void {
    this.shared = view.shared
      ? { revision: view.revision, text: view.document?.text ?? null, path: view.document?.path ?? null }
      : { revision: this.shared?.revision ?? 0, text: null, path: null };
  }

  /** Applies the agent's text to the open editor when it is the same document. */
  private applyAgent(view: ContextView): void {
    const before = this.shared;
    const editor = currentScreen().editor;
    if (view.shared && view.document && editor && before?.text != null && before.path === view.document.path) {
      const open = editor.snapshot();
      // The editor may hold that text already (a revision it just loaded, sent by this tab): applied again, its edit would land twice.
      const changed = view.document.text !== before.text && view.document.text !== open.text;
      if (open.path === view.document.path && changed) editor.applyAgentText(before.text, view.document.text);
    }
    this.remember(view);
  }

  private async waitForAgent(): Promise<void> {
    let after: number | null = null;
    while (after === null) {
      try {
        after = this.shared?.revision ?? (await this.read()).revision;
      } catch {
        if (this.stopped.signal.aborted) return;
        await new Promise((resume) => setTimeout(resume, RETRY_MS));
      }
    }
    followTopic(`context:${this.threadId}@${after}`, { onEvent: ({ data }) => this.serially(() => this.fromAgent(JSON.parse(data) as ContextView)) }, this.stopped.signal);
  }

  private async fromAgent(view: ContextView): Promise<void> {
    if (!view.shared || view.revision <= (this.shared?.revision ?? 0)) return;
    this.applyAgent(view);
    // Edits the operator made meanwhile are sent on top of the agent's, in the document both edited. A
    // revision of another document is another window of this operator sharing its own screen: answering it
    // with this one's would start the two windows answering each other, each sending its whole document.
    const mine = currentScreen().editor?.snapshot();
    if (mine && mine.path === view.document?.path && mine.text !== this.shared?.text) await this.push();
  }
}
