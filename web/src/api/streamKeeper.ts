// The one stream (GET /api/v1/stream) a leader tab keeps for every tab of the
// browser: the union of the topics they want, one entry for each shared
// topic (a thread's context too: six tabs on one conversation hear each
// revision once, not six times). A new topic opens a new stream before the
// old one closes (nothing falls between them; turns resume after their last
// event, and what comes twice is dropped). A stream that drops opens again after a
// pause growing from 0.5 s to 10 s. While no stream answers, the tabs are
// told live updates paused and what they follow is read again every 5 s.
import { api, ApiError } from './client';
import { openEventStream, type ServerEvent } from './events';
import { alreadyHeard, type Delivery, earlier, isShared, type Refusal, resumeAfter, resumed, shareKeyOf, type Want } from './topicWire';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;
/** A stream not answering within this long is not to be had for now: the tabs poll meanwhile. */
const ANSWER_MS = 4000;
export const POLL_MS = 5000;
/** A stream closed lets its connection go before the next one opens. */
const SETTLE_MS = 50;

interface Entry {
  topic: string;
  keys: string[];
}

interface Attempt {
  entries: Entry[];
  keys: Set<string>;
  stop: AbortController;
}

function entriesOf(wants: Iterable<Want>): Entry[] {
  const entries: Entry[] = [];
  const shared = new Map<string, Entry>();
  for (const want of wants) {
    const shareKey = shareKeyOf(want.spec);
    const known = shareKey === null ? undefined : shared.get(shareKey);
    if (known) {
      known.keys.push(want.key);
      known.topic = earlier(known.topic, resumed(want));
      continue;
    }
    const entry = { topic: resumed(want), keys: [want.key] };
    entries.push(entry);
    if (shareKey !== null) shared.set(shareKey, entry);
  }
  return entries;
}

export class StreamKeeper {
  /** Each tab's wants, by tab. */
  private readonly tabs = new Map<string, Want[]>();
  /** Every want, by key (resume points move here as events come). */
  private readonly wants = new Map<string, Want>();
  /** The stream that answered last, and one opening to take its place. */
  private current: Attempt | null = null;
  private next: Attempt | null = null;
  private pause = FIRST_PAUSE_MS;
  private live = true;
  private poller: ReturnType<typeof setInterval> | null = null;
  private syncing = false;
  /** Topics came while a stream was opening: another opens once it answered. */
  private behind = false;
  private closed = false;

  constructor(private readonly deliver: (delivery: Delivery) => void) {}

  /** `tab` wants these topics now (all of them: what it no longer names, it no longer wants). */
  want(tab: string, wants: Want[]): void {
    const before = new Set(this.wants.keys());
    // The resume points kept here are the newest: every event passes through.
    const kept = new Map((this.tabs.get(tab) ?? []).map((w) => [w.key, this.wants.get(w.key) ?? w]));
    for (const key of kept.keys()) this.wants.delete(key);
    this.tabs.set(tab, wants);
    for (const want of wants) this.wants.set(want.key, kept.get(want.key) ?? want);
    if (!this.live) {
      // A tab that just came learns how things stand; while polling, nothing listens, so a new topic may go at once.
      this.deliver({ type: 'live', live: false });
      const fresh = wants.filter((w) => !before.has(w.key)).map((w) => w.key);
      if (fresh.length > 0) this.deliver({ type: 'open', keys: fresh });
    }
    this.schedule();
  }

  forget(tab: string): void {
    this.want(tab, []);
    this.tabs.delete(tab);
  }

  close(): void {
    this.closed = true;
    this.current?.stop.abort();
    this.next?.stop.abort();
    this.stopPolling();
  }

  /** Several tabs changing at once make one new stream. */
  private schedule(): void {
    if (this.syncing) return;
    this.syncing = true;
    queueMicrotask(() => {
      this.syncing = false;
      this.sync();
    });
  }

  private sync(): void {
    if (this.closed || this.wants.size === 0) return;
    // At most two streams at once: one answering, one opening; what changes meanwhile waits for the opening one.
    if (this.next) return void (this.behind = true);
    // Topics no longer wanted stay on the stream until it changes for another reason: closing costs a reconnect.
    if (this.current && [...this.wants.keys()].every((key) => this.current?.keys.has(key))) return;
    this.open(false);
  }

  private open(dropped: boolean): void {
    const entries = entriesOf(this.wants.values());
    const attempt: Attempt = { entries, keys: new Set(entries.flatMap((e) => e.keys)), stop: new AbortController() };
    this.next?.stop.abort();
    this.next = attempt;
    // One that does not answer (a proxy holding it back) is given up and tried again, polling meanwhile.
    const unanswered = setTimeout(() => {
      if (this.next !== attempt) return;
      attempt.stop.abort();
      this.next = null;
      this.setLive(false);
      void this.retry();
    }, ANSWER_MS);
    attempt.stop.signal.addEventListener('abort', () => clearTimeout(unanswered), { once: true });
    const path = `/api/v1/stream?${entries.map((e) => `topic=${encodeURIComponent(e.topic)}`).join('&')}`;
    openEventStream(path, (event) => this.heard(attempt, event), attempt.stop.signal).then(
      ({ closed }) => {
        clearTimeout(unanswered);
        this.answered(attempt, dropped);
        void closed.then(() => this.ended(attempt));
      },
      (error: unknown) => {
        clearTimeout(unanswered);
        this.failed(attempt, error);
      },
    );
  }

  private answered(attempt: Attempt, dropped: boolean): void {
    if (attempt.stop.signal.aborted) return;
    const before = this.current;
    this.current = attempt;
    if (this.next === attempt) this.next = null;
    before?.stop.abort();
    this.pause = FIRST_PAUSE_MS;
    // After a drop or a pause every key may have missed something; otherwise only the new keys begin listening.
    const opened = [...attempt.keys].filter((key) => dropped || !this.live || !before?.keys.has(key));
    this.setLive(true);
    if (opened.length > 0) this.deliver({ type: 'open', keys: opened });
    if (this.behind) {
      this.behind = false;
      // The stream before lets its connection go first.
      setTimeout(() => this.sync(), SETTLE_MS);
    }
  }

  private ended(attempt: Attempt): void {
    if (attempt.stop.signal.aborted || this.closed) return;
    if (this.current === attempt) this.current = null;
    void this.retry();
  }

  private failed(attempt: Attempt, error: unknown): void {
    if (attempt.stop.signal.aborted || this.closed) return;
    if (this.next === attempt) this.next = null;
    if (this.behind) {
      this.behind = false;
      this.schedule();
    }
    // A refusal (the token no longer accepted, a topic malformed) does not change by asking again.
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      const refusal = { status: error.status, error: error.message };
      this.deliver({ type: 'end', keys: [...attempt.keys], refusal });
      for (const key of attempt.keys) this.wants.delete(key);
      return;
    }
    void this.retry();
  }

  private async retry(): Promise<void> {
    const wait = this.pause;
    this.pause = Math.min(this.pause * 2, LONGEST_PAUSE_MS);
    if (wait > FIRST_PAUSE_MS) this.setLive(false);
    await new Promise((resume) => setTimeout(resume, wait));
    if (!this.closed && !this.next && this.wants.size > 0) this.open(true);
  }

  private heard(attempt: Attempt, message: ServerEvent): void {
    const envelope = JSON.parse(message.data) as { topic: number; id: string | null; data: unknown };
    const entry = attempt.entries[envelope.topic];
    if (!entry) return;
    const wanted = entry.keys.filter((key) => this.wants.has(key));
    if (message.event === 'end') {
      for (const key of wanted) this.wants.delete(key);
      this.deliver({ type: 'end', keys: wanted, refusal: (envelope.data as Refusal | null) ?? null });
      return;
    }
    const event: ServerEvent = { id: envelope.id, event: message.event, data: JSON.stringify(envelope.data) };
    // Read once per event (a context's carries its whole document), not once per tab.
    const point = resumeAfter(entry.topic, event);
    // Only to the tabs that have not heard it: a shared context's entry starts at the follower furthest behind.
    const keys = wanted.filter((key) => {
      const want = this.wants.get(key);
      if (!want || alreadyHeard(want.spec, want.resume, point)) return false;
      if (point) this.wants.set(key, { ...want, resume: point });
      return true;
    });
    if (keys.length > 0) this.deliver({ type: 'event', keys, event });
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    this.deliver({ type: 'live', live });
    if (live) return this.stopPolling();
    // Sends wait for their turn's topic to listen: polling, nothing listens, so they go at once.
    const waiting = [...this.wants.keys()].filter((key) => !this.current?.keys.has(key));
    if (waiting.length > 0) this.deliver({ type: 'open', keys: waiting });
    this.poller = setInterval(() => void this.poll(), POLL_MS);
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  /** What each topic would have said, read again: changes and projects read everything, a context its newest revision. */
  private async poll(): Promise<void> {
    const everything = [...this.wants.values()].filter((w) => isShared(w.spec)).map((w) => w.key);
    if (everything.length > 0) this.deliver({ type: 'event', keys: everything, event: { id: null, event: 'resync', data: '{}' } });
    for (const want of this.wants.values()) {
      if (!want.spec.startsWith('context:')) continue;
      const thread = want.spec.slice('context:'.length).split('@')[0] ?? '';
      const view = await api<{ shared: boolean; revision: number }>('GET', `/api/v1/assistant/threads/${thread}/context`).catch(() => null);
      const after = Number(resumed(want).split('@')[1]);
      if (!view?.shared || view.revision <= after) continue;
      this.wants.set(want.key, { ...want, resume: String(view.revision) });
      this.deliver({ type: 'event', keys: [want.key], event: { id: null, event: 'context', data: JSON.stringify(view) } });
    }
  }
}
