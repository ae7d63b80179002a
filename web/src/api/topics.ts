// What the tab follows as it changes (its threads, its project, a turn, a
// thread's shared context), each a topic of the one stream its browser's tabs
// share (api/tabLeader): a follow asks for its topic, hears its events, and
// ends with its last event, a refusal, or its signal. The tab's own requests
// never queue behind streams of its own.
import { useSyncExternalStore } from 'react';
import { currentToken } from '../auth/token';
import { ApiError } from './client';
import type { ServerEvent } from './events';
import { randomId } from './randomId';
import { type Leader, shareStream } from './tabLeader';
import { alreadyHeard, type Delivery, resumeAfter, type Want } from './topicWire';

export interface TopicHandlers {
  onEvent(event: ServerEvent): void;
  /** Whether this is the topic's last event: after it, the follow is over. */
  isLast?(event: ServerEvent): boolean;
  /** The topic is listened to: events before it (or, `reopened`, while the stream was down) were not heard. */
  onOpen?(reopened: boolean): void;
}

export interface Follow {
  /** Settles once the topic is listened to (or read again while paused); rejects when it was refused first. */
  listening: Promise<void>;
  /** Settles when the follow is over: its last event came, the server refused it, or the signal aborted. */
  done: Promise<void>;
}

interface Followed {
  want: Want;
  handlers: TopicHandlers;
  opened: boolean;
  listened(): void;
  refused(error: ApiError): void;
  over(): void;
}

class TabTopics {
  private readonly follows = new Map<string, Followed>();
  private readonly leader: Leader;
  private count = 0;

  constructor(readonly token: string) {
    this.leader = shareStream(token, (delivery) => this.receive(delivery));
  }

  follow(spec: string, handlers: TopicHandlers, signal: AbortSignal): Follow {
    const key = `${randomId()}:${++this.count}`;
    let listened!: () => void;
    let refused!: (error: ApiError) => void;
    const listening = new Promise<void>((resolve, reject) => {
      listened = resolve;
      refused = reject;
    });
    // Callers who do not wait for it must not see an unhandled rejection.
    listening.catch(() => undefined);
    let over!: () => void;
    const done = new Promise<void>((resolve) => (over = resolve));
    const finish = () => {
      if (!this.follows.delete(key)) return;
      refused(new ApiError(0, 'the follow ended before it was listened to', null));
      over();
      this.changed();
    };
    if (signal.aborted) {
      over();
      return { listening, done };
    }
    this.follows.set(key, { want: { key, spec, resume: null }, handlers, opened: false, listened, refused, over: finish });
    signal.addEventListener('abort', finish, { once: true });
    this.changed();
    return { listening, done };
  }

  close(): void {
    [...this.follows.values()].forEach((f) => f.over());
    this.leader.close();
  }

  private changed(): void {
    this.leader.want([...this.follows.values()].map((f) => f.want));
  }

  private receive(delivery: Delivery): void {
    if (delivery.type === 'live') return setLive(delivery.live);
    for (const key of delivery.keys) {
      const followed = this.follows.get(key);
      if (!followed) continue;
      if (delivery.type === 'open') {
        followed.listened();
        followed.handlers.onOpen?.(followed.opened);
        followed.opened = true;
      } else if (delivery.type === 'end') {
        if (delivery.refusal) followed.refused(new ApiError(delivery.refusal.status ?? 500, delivery.refusal.error, delivery.refusal));
        followed.over();
      } else {
        const { event } = delivery;
        const point = resumeAfter(followed.want.spec, event);
        if (alreadyHeard(followed.want.spec, followed.want.resume, point)) continue;
        followed.want = { ...followed.want, resume: point ?? followed.want.resume };
        followed.handlers.onEvent(event);
        if (followed.handlers.isLast?.(event)) followed.over();
      }
    }
  }
}

let tab: TabTopics | null = null;

/** Follows `spec` (streams/topics on the server names them) while the tab is signed in. */
export function followTopic(spec: string, handlers: TopicHandlers, signal: AbortSignal): Follow {
  const token = currentToken();
  if (tab && tab.token !== token) {
    tab.close();
    tab = null;
  }
  if (!token) {
    const refused = Promise.reject(new ApiError(401, 'signed out', null));
    refused.catch(() => undefined);
    return { listening: refused, done: Promise.resolve() };
  }
  tab ??= new TabTopics(token);
  return tab.follow(spec, handlers, signal);
}

let live = true;
const liveListeners = new Set<() => void>();

function setLive(now: boolean): void {
  if (live === now) return;
  live = now;
  liveListeners.forEach((listener) => listener());
}

/** Whether a stream carries the tab's topics: false while they are read again every few seconds instead. */
export function useLiveUpdates(): boolean {
  return useSyncExternalStore(
    (listener) => {
      liveListeners.add(listener);
      return () => liveListeners.delete(listener);
    },
    () => live,
  );
}
