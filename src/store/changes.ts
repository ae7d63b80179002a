// Change notices: what a committed write touched, told to this server's
// caches and waiters at once and to every other server through NOTIFY, which
// PostgreSQL delivers only when the transaction commits.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Store } from './db.js';

const CHANNEL = 'aion_changes';

/**
 * `project:<id>` (anything in a project), `environment:<id>` (a write in one
 * environment: a deploy, a secret set), `token:<id>`, `operator:<id>` (every
 * token of an operator), `thread:<id>` (a conversation's shared context); `*` means anything.
 */
export type Topic =
  | `project:${string}`
  | `environment:${string}`
  | `token:${string}`
  | `operator:${string}`
  | `thread:${string}`
  /** `documents:<project slug>`: a document of the project was written or deleted (the executor's write). */
  | `documents:${string}`
  /** `change-requests:<project slug>:<id>:<status>`: a change request was opened or decided (src/change-requests/topics.ts). */
  | `change-requests:${string}`
  | TurnTopic
  /** `agent:<thread>`: the thread's agent lease changed hands, or the thread went (src/acp/agent-lease.ts). */
  | `agent:${string}`
  | '*';

/**
 * `turn:<thread>` (a turn of the thread started, stored events or ended),
 * `turn-cancel:<thread>` (any server asked its turn to stop), `turn-question:<thread>` (an agent's question was answered),
 * `threads:<operator>:<thread>:<what>` (a thread of the operator changed: the console refreshes).
 */
export type TurnTopic = `turn:${string}` | `turn-cancel:${string}` | `turn-question:${string}` | `threads:${string}`;

export type ChangeListener = (topic: Topic) => void;

/** Writes that follow what a transaction touched, inside it (the webhooks' outbox): they commit or roll back with it. */
export type CommitHook = (tx: Db, touched: ReadonlySet<Topic>) => Promise<void>;

/** What the changes say about their own connection. */
export interface ChangesLog {
  warn(message: string): void;
  info(details: object, message: string): void;
}

export class Changes {
  private readonly listeners = new Set<ChangeListener>();
  private readonly commitHooks: CommitHook[] = [];
  /** Aborted when the server closes: every held request answers at once. */
  private readonly closer = new AbortController();
  private held = 0;
  private heard = true;
  /** Names this server in its notices, so it does not hear its own twice. */
  private readonly origin = randomUUID();

  /** How many requests wait for a change right now (operations and tests read it). */
  get waiting(): number {
    return this.held;
  }

  /**
   * Whether every other server's notices reach this one. While they do not,
   * a cache must keep nothing (what it read may change unannounced): it
   * serves from the store until they do again.
   */
  get hearing(): boolean {
    return this.heard;
  }

  private constructor(private readonly shared: boolean) {}

  static async open(store: Store, log: ChangesLog): Promise<Changes> {
    const changes = new Changes(store.kind === 'postgres');
    await store.listen(
      CHANNEL,
      (payload) => {
        // `<server> <topic>`: this server told its own at commit already.
        const space = payload.indexOf(' ');
        if (payload.slice(0, space) === changes.origin) return;
        for (const topic of payload.slice(space + 1).split('\n')) changes.emit(topic as Topic);
      },
      (connected) => {
        if (connected) log.info({}, 'change notices reach this server again; caches fill again');
        else if (changes.heard) log.warn('the connection that hears change notices dropped; caches are off until it is back');
        else log.warn('listening for change notices failed again; trying again later, caches stay off');
        changes.heard = connected;
        // Whatever was cached, or changed while nobody heard, is read afresh.
        changes.emit('*');
      },
    );
    return changes;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `hook` at the end of every transaction below that touched anything, before it commits. */
  beforeCommit(hook: CommitHook): void {
    this.commitHooks.push(hook);
  }

  /**
   * Runs `work` in a transaction; each topic it touches is announced to the
   * other servers on commit and to this one right after.
   */
  async transaction<T>(db: Db, work: (tx: Db, touch: (topic: Topic) => void) => Promise<T>): Promise<T> {
    const touched = new Set<Topic>();
    const result = await db.transaction(async (tx) => {
      const value = await work(tx, (topic) => touched.add(topic));
      if (touched.size > 0) for (const hook of this.commitHooks) await hook(tx, touched);
      // The embedded store has no other server to tell.
      if (this.shared) for (const payload of payloads(this.origin, touched)) await tx.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
      return value;
    });
    for (const topic of touched) this.emit(topic);
    return result;
  }

  /** Announces what a write committed without a `touch` at hand (one the executor ran) touched. */
  async announce(db: Db, topics: readonly Topic[]): Promise<void> {
    if (this.shared) for (const payload of payloads(this.origin, topics)) await db.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
    for (const topic of topics) this.emit(topic);
  }

  private emit(topic: Topic): void {
    for (const listener of this.listeners) listener(topic);
  }

  /** Aborts when the server closes: streams end with it. */
  get closing(): AbortSignal {
    return this.closer.signal;
  }

  /** Answers every held request now: the server is closing. */
  stopWaiting(): void {
    this.closer.abort();
  }

  /**
   * Reads again whenever one of `topics` is announced, until `done` holds for
   * what was read, `ms` pass, `signal` aborts or the server closes; answers
   * the last read. Subscribed before each read, so a change that lands in
   * between is not missed.
   */
  async waitFor<T>(
    topics: readonly Topic[],
    read: () => Promise<T>,
    done: (value: T) => boolean,
    ms: number,
    signal: AbortSignal,
  ): Promise<T> {
    const stop = AbortSignal.any([signal, this.closer.signal]);
    const deadline = Date.now() + ms;
    let announced = false;
    let wake: (() => void) | null = null;
    const unsubscribe = this.subscribe((changed) => {
      // A `*` told while notices do not arrive says only that they stopped
      // (`heard` is already false): nothing new to read, and the store may be
      // out of reach; the `*` that says they are back wakes every waiter.
      if (changed === '*' ? !this.heard : !topics.includes(changed)) return;
      announced = true;
      wake?.();
    });
    this.held++;
    try {
      for (;;) {
        const value = await read();
        const left = deadline - Date.now();
        if (done(value) || left <= 0 || stop.aborted) return value;
        if (!announced) await pause(left, stop, (resume) => (wake = resume));
        // Whatever was announced until now, the next read sees.
        wake = null;
        announced = false;
      }
    } finally {
      this.held--;
      unsubscribe();
    }
  }
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: topics go out a line each, in as few notices as fit. */
const MAX_PAYLOAD_CHARS = 7000;

/** `<server> <topic>\n<topic>…` notices naming every topic touched. */
function payloads(origin: string, topics: Iterable<Topic>): string[] {
  const out: string[] = [];
  let lines: string[] = [];
  let size = 0;
  for (const topic of topics) {
    if (lines.length > 0 && size + topic.length + 1 > MAX_PAYLOAD_CHARS) {
      out.push(`${origin} ${lines.join('\n')}`);
      lines = [];
      size = 0;
    }
    lines.push(topic);
    size += topic.length + 1;
  }
  if (lines.length > 0) out.push(`${origin} ${lines.join('\n')}`);
  return out;
}

/** Resolves after `ms`, when `stop` aborts, or when the function handed to `onWake` is called. */
function pause(ms: number, stop: AbortSignal, onWake: (resume: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done);
    onWake(done);
  });
}
