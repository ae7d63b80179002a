// Turns across servers: a turn is a row with a lease the server running it
// renews; an expired lease frees the thread (the turn is stored as an
// interrupted answer, its proposals waiting). Cancel is written to the row and
// heard by the server running it; the turn's events are followed from memory
// here, or from the store when it runs elsewhere.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics.js';
import { conflict } from '../errors.js';
import type { Changes, Topic } from '../store/changes.js';
import { storeNow } from '../store/clock.js';
import type { Db } from '../store/db.js';
import { isoTime } from '../store/json-views.js';
import { operators, proposals, threads, turnEvents, turns } from '../store/schema.js';
import type { ThreadTurn } from '../wire/thread.js';
import type { TurnEvent } from '../wire/turn-event.js';
import { interruptedTurn, type InterruptedTurn } from './interrupted.js';
import { RunningTurn, type NumberedEvent, type StoredTurnEvent } from './running-turn.js';
import { cancelTopic, threadChangeTopic, turnTopic, type ThreadChangeKind } from './topics.js';

export interface TurnsDeps {
  db: Db;
  changes: Changes;
  config: Pick<Config, 'serverName' | 'turnLeaseMs'>;
  log: { warn(message: string): void; error(details: { err: unknown }, message: string): void };
  metrics: Pick<Metrics, 'turnEventsWritten'>;
  /** Stores an interrupted turn's answer, inside the transaction that ends it. */
  storeInterrupted(tx: Db, turn: InterruptedTurn): Promise<void>;
}


/** Where a follower is: the last event it has of a turn (`seq` -1: none yet). */
export interface EventCursor {
  turn: string;
  seq: number;
}

/** A thread's row, as a claim locks it. */
export type ThreadRow = typeof threads.$inferSelect;

/** What a turn's claim needs of its thread. */
export interface TurnThread {
  id: string;
  operatorId: string;
  agent: string | null;
}

type Touch = (topic: Topic) => void;

/** Ended turns are kept this long, so a follower that lost its connection can still read how it ended. */
const KEEP_ENDED_MS = 5 * 60_000;
/** A follower of a turn on another server reads again at least this often, whether or not a notice came. */
const FOLLOW_POLL_MS = 1_000;
const HOUR_MS = 3_600_000;
/** A claim that finds its thread's turn expired takes it over and tries again; a second expired turn in between is all but impossible. */
const TAKEOVER_TRIES = 3;

/** Thrown inside a claim's transaction: the thread's turn expired and must be taken over first (`claiming`). */
class ExpiredTurn extends Error {
  constructor(readonly turnId: string) {
    super(`turn ${turnId} expired and is to be taken over`);
  }
}

/** A thread's newest turn at a moment, running or not (null: none yet). */
export type TurnMark = { id: string; startedAt: Date; running: boolean } | null;

export class Turns {
  /** The turns running on this server, by thread. */
  private readonly here = new Map<string, RunningTurn>();
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: TurnsDeps) {}

  private get leaseEnd() {
    return storeNow(this.deps.config.turnLeaseMs);
  }

  /**
   * Takes over what this server's previous life left running, then keeps
   * this server's leases, hears cancels, and frees the threads of servers that died.
   */
  async open(): Promise<void> {
    const leftover = await this.deps.db
      .select({ id: turns.id })
      .from(turns)
      .where(and(eq(turns.server, this.deps.config.serverName), isNull(turns.endedAt)));
    for (const { id } of leftover) await this.interruptIfExpired(id, { evenIfLeased: true });
    this.unsubscribe = this.deps.changes.subscribe((topic) => this.heard(topic));
    const lease = this.deps.config.turnLeaseMs;
    this.every(Math.max(200, Math.floor(lease / 3)), () => this.renew());
    this.every(Math.min(2_000, Math.max(200, Math.floor(lease / 10))), () => this.freeExpired());
    this.every(60_000, () => this.prune());
  }

  /** Stops keeping leases; the turns still running here are cancelled. */
  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe?.();
    for (const turn of this.here.values()) turn.requestCancel();
  }

  private every(ms: number, work: () => Promise<void>): void {
    const timer = setInterval(() => {
      work().catch((err: unknown) => this.deps.log.error({ err }, 'keeping the turns of this server failed; trying again'));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Inside the transaction of a turn's claim: locks the operator's thread
   * `threadId` and the operator's row (one operator's messages are counted
   * one at a time), refuses while a turn runs (its lease alive), and hands a
   * turn whose lease expired to `claiming` to take over. Answers the
   * thread's row (null when the operator has no such thread) and whether a
   * proposal waits.
   */
  async free(tx: Db, operatorId: string, threadId: string): Promise<{ thread: ThreadRow | null; waiting: boolean }> {
    // One statement: the rows locked (claims take turns), the thread, its running turn, whether a proposal waits.
    const [state] = await tx
      .select({ thread: getTableColumns(threads), turn: turns.id, live: sql<boolean>`${turns.leaseUntil} > now()`, waiting: waitingOn(threadId) })
      .from(threads)
      .innerJoin(operators, eq(operators.id, threads.operatorId))
      .leftJoin(turns, and(eq(turns.threadId, threads.id), isNull(turns.endedAt)))
      .where(and(eq(threads.id, threadId), eq(threads.operatorId, operatorId)))
      .for('update', { of: [threads, operators] });
    if (!state) return { thread: null, waiting: false };
    if (state.live) throw conflict('the assistant is still answering this thread; wait for its answer');
    // Taken over in a transaction of its own (`claiming`): a claim that then refuses must not undo the takeover.
    if (state.turn) throw new ExpiredTurn(state.turn);
    return { thread: state.thread, waiting: state.waiting };
  }

  /**
   * Runs a claim's transaction (one that calls `free`). When it finds the
   * thread's turn expired, that turn is taken over in a transaction of its own,
   * committed whatever the claim answers next (its proposals wait, a 409 shows
   * them), and the claim runs again.
   */
  async claiming<T>(claim: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await claim();
      } catch (error) {
        if (!(error instanceof ExpiredTurn)) throw error;
        if (tries === TAKEOVER_TRIES) throw conflict('the previous turn of this thread is being taken over; send the message again');
        await this.interruptIfExpired(error.turnId, { evenIfLeased: false, waitForLocks: true });
      }
    }
  }

  /**
   * Inside the claim's transaction, after `free`: the turn, and the statement
   * that stores its row, held by this server — to run in that transaction
   * (as a CTE of the claim's one statement). Register the turn after the
   * commit with `hold`.
   */
  begin(touch: Touch, thread: TurnThread): { turn: RunningTurn; insert: SQL } {
    const id = randomUUID();
    touch(turnTopic(thread.id));
    touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'turn_started' }));
    return {
      turn: new RunningTurn(id, thread.id, thread.agent, { db: this.deps.db, changes: this.deps.changes }),
      insert: sql`insert into ${turns} (id, thread_id, agent, server, lease_until)
        values (${id}, ${thread.id}, ${thread.agent}, ${this.deps.config.serverName}, ${this.leaseEnd})`,
    };
  }

  /** The claimed turn runs here from now on: its lease is kept, cancels reach it. */
  hold(turn: RunningTurn): void {
    this.here.set(turn.threadId, turn);
  }

  /** The turn no longer runs here, however it ended (its end may have failed to be stored). */
  release(turn: RunningTurn): void {
    if (this.here.get(turn.threadId) === turn) this.here.delete(turn.threadId);
  }

  /** The thread's turn running on this server, if one does. */
  runningHere(threadId: string): RunningTurn | null {
    return this.here.get(threadId) ?? null;
  }

  /**
   * Ends the turn inside the transaction that stores its answer (or its
   * failure): its last events and the row in one commit. A turn another
   * server already took as interrupted stores nothing (409).
   */
  async end(tx: Db, touch: Touch, turn: RunningTurn, operatorId: string, last: Extract<TurnEvent, { type: 'ended' }>): Promise<void> {
    if (!(await turn.storeEnd(tx, last))) throw conflict('this turn was taken over as interrupted while it ran: its server lost its lease; send the message again');
    touch(turnTopic(turn.threadId));
    touch(threadChangeTopic(operatorId, { thread: turn.threadId, what: 'turn_ended' }));
  }

  /** After the end's commit: followers here hear it, and the turn no longer runs here. */
  ended(turn: RunningTurn): void {
    this.release(turn);
    turn.ended();
    this.deps.metrics.turnEventsWritten(turn.writeSeconds);
  }

  /** Stops the thread's turn wherever it runs; false when none runs. */
  async cancel(threadId: string): Promise<boolean> {
    const local = this.here.get(threadId);
    if (local) {
      local.requestCancel();
      return true;
    }
    return this.deps.changes.transaction(this.deps.db, async (tx, touch) => {
      const asked = await tx
        .update(turns)
        .set({ cancelRequested: true })
        .where(and(eq(turns.threadId, threadId), isNull(turns.endedAt), gt(turns.leaseUntil, sql`now()`)))
        .returning({ id: turns.id });
      if (asked.length > 0) touch(cancelTopic(threadId));
      return asked.length > 0;
    });
  }

  /**
   * Sends the events of the thread's turn after `after` (or of its running
   * turn from the first, or of the next to start), until the turn ends or
   * `signal` aborts. Each goes with its id, `<turn>:<seq>`.
   */
  /**
   * Where "the next turn" starts from: the thread's newest turn now. A follower takes it before it
   * tells its client it follows, so a turn started and ended right after is still the next one.
   */
  mark(threadId: string): Promise<TurnMark> {
    return this.newestTurn(threadId);
  }

  async follow(threadId: string, after: EventCursor | null, send: (id: string, event: TurnEvent) => void, signal: AbortSignal, mark?: TurnMark): Promise<void> {
    // A cursor into another thread's turn (or one long gone) counts as none.
    if (after && !(await this.isTurnOf(after.turn, threadId))) after = null;
    // The next turn is one that runs now or starts after this moment: a turn that starts and ends between two looks is still it.
    const before = after ? null : mark !== undefined ? mark : await this.newestTurn(threadId);
    const turnId =
      after?.turn ??
      (await this.deps.changes.waitFor([turnTopic(threadId)], () => this.turnSince(threadId, before), (id) => id !== null, HOUR_MS, signal));
    if (!turnId || signal.aborted) return;
    let seq = after?.seq ?? -1;
    const deliver = ({ seq: at, event }: NumberedEvent) => {
      seq = at;
      send(`${turnId}:${at}`, streamed(event));
      return event.type === 'ended';
    };
    for (;;) {
      const local = this.here.get(threadId);
      if (local?.id === turnId) return followHere(local, seq, deliver, signal);
      const read = await this.deps.changes.waitFor(
        [turnTopic(threadId)],
        () => this.storedAfter(turnId, seq),
        (r) => r.events.length > 0 || r.ended !== undefined,
        FOLLOW_POLL_MS,
        signal,
      );
      for (const numbered of read.events) if (deliver(numbered)) return;
      if (signal.aborted) return;
      // Ended, and its end pruned (or never stored): the row still says how.
      if (read.events.length === 0 && read.ended !== undefined) {
        send(`${turnId}:${seq + 1}`, { type: 'ended', stop_reason: read.ended });
        return;
      }
    }
  }

  private async isTurnOf(turnId: string, threadId: string): Promise<boolean> {
    if (this.here.get(threadId)?.id === turnId) return true;
    const [row] = await this.deps.db.select({ id: turns.id }).from(turns).where(and(eq(turns.id, turnId), eq(turns.threadId, threadId)));
    return row !== undefined;
  }

  /** The thread's newest turn, running or not. */
  private async newestTurn(threadId: string): Promise<TurnMark> {
    const [row] = await this.deps.db
      .select({ id: turns.id, startedAt: turns.startedAt, running: sql<boolean>`${turns.endedAt} is null` })
      .from(turns)
      .where(eq(turns.threadId, threadId))
      .orderBy(desc(turns.startedAt))
      .limit(1);
    return row ?? null;
  }

  /** The thread's turn running now, or the newest started after `before` (any, without one). */
  private async turnSince(threadId: string, before: { id: string; startedAt: Date; running: boolean } | null): Promise<string | null> {
    if (before?.running) return before.id;
    const newest = await this.newestTurn(threadId);
    if (!newest) return null;
    return !before || newest.running || (newest.id !== before.id && newest.startedAt >= before.startedAt) ? newest.id : null;
  }

  /** The stored events after `seq`, and how the turn ended (undefined while it runs; a missing turn reads as ended). */
  private async storedAfter(turnId: string, seq: number): Promise<{ events: NumberedEvent[]; ended: string | null | undefined }> {
    const events = await this.deps.db
      .select({ seq: turnEvents.seq, event: turnEvents.event })
      .from(turnEvents)
      .where(and(eq(turnEvents.turnId, turnId), gt(turnEvents.seq, seq)))
      .orderBy(asc(turnEvents.seq))
      .limit(500);
    if (events.length > 0) return { events: events.map((e) => ({ seq: e.seq, event: e.event })), ended: undefined };
    const [row] = await this.deps.db.select({ endedAt: turns.endedAt, stopReason: turns.stopReason }).from(turns).where(eq(turns.id, turnId));
    return { events: [], ended: !row ? null : row.endedAt ? row.stopReason : undefined };
  }

  /** A cancel asked on another server; after a lost connection, every turn here looks again. */
  private heard(topic: Topic): void {
    if (topic === '*') {
      void this.renew().catch(() => undefined);
      return;
    }
    if (!topic.startsWith('turn-cancel:')) return;
    this.here.get(topic.slice('turn-cancel:'.length))?.requestCancel();
  }

  /** Renews the leases of the turns running here; a cancel written meanwhile is heard, a turn taken from us stops. */
  private async renew(): Promise<void> {
    const held = [...this.here.values()];
    if (held.length === 0) return;
    const renewed = await this.deps.db
      .update(turns)
      .set({ leaseUntil: this.leaseEnd })
      .where(and(inArray(turns.id, held.map((t) => t.id)), isNull(turns.endedAt)))
      .returning({ id: turns.id, cancelRequested: turns.cancelRequested });
    const alive = new Map(renewed.map((r) => [r.id, r.cancelRequested]));
    for (const turn of held) if (alive.get(turn.id) !== false) turn.requestCancel();
  }

  /** Frees the threads whose turns' servers stopped renewing. */
  private async freeExpired(): Promise<void> {
    const expired = await this.deps.db
      .select({ id: turns.id })
      .from(turns)
      .where(and(isNull(turns.endedAt), lt(turns.leaseUntil, sql`now()`)))
      .limit(20);
    for (const { id } of expired) await this.interruptIfExpired(id, { evenIfLeased: false });
  }

  /**
   * Takes the turn over (if it is still running, and expired unless `evenIfLeased`).
   * Locks its thread before its row, the order a claim locks them, so the two never
   * deadlock; the sweep skips what a claim holds (that claim takes it over), a claim waits.
   */
  private async interruptIfExpired(turnId: string, { evenIfLeased, waitForLocks = false }: { evenIfLeased: boolean; waitForLocks?: boolean }): Promise<void> {
    const locking = waitForLocks ? undefined : ({ skipLocked: true } as const);
    await this.deps.changes.transaction(this.deps.db, async (tx, touch) => {
      const [thread] = await tx
        .select({ id: threads.id })
        .from(threads)
        .where(eq(threads.id, sql`(select ${turns.threadId} from ${turns} where ${turns.id} = ${turnId})`))
        .for('update', locking);
      if (!thread) return;
      // Another server may be taking it at the same moment: whoever locks it first does.
      const [row] = await tx
        .select({ id: turns.id })
        .from(turns)
        .where(and(eq(turns.id, turnId), isNull(turns.endedAt), evenIfLeased ? sql`true` : lt(turns.leaseUntil, sql`now()`)))
        .for('update', locking);
      if (row) await this.interrupt(tx, touch, row.id);
    });
  }

  /** Ends a turn whose server is gone: its answer stored with what it had said, its proposals waiting. */
  private async interrupt(tx: Db, touch: Touch, turnId: string): Promise<void> {
    const [row] = await tx
      .update(turns)
      .set({ endedAt: new Date(), stopReason: 'interrupted' })
      // Another server may have stored it a moment ago (its sweep, a claim): once is all.
      .where(and(eq(turns.id, turnId), isNull(turns.endedAt)))
      .returning({ threadId: turns.threadId, agent: turns.agent });
    if (!row) return;
    const stored = await tx.select({ seq: turnEvents.seq, event: turnEvents.event }).from(turnEvents).where(eq(turnEvents.turnId, turnId)).orderBy(asc(turnEvents.seq));
    const events = stored.map((e) => e.event);
    const interrupted = interruptedTurn(row.threadId, row.agent, events);
    await this.deps.storeInterrupted(tx, interrupted);
    const last: TurnEvent = { type: 'ended', stop_reason: 'interrupted' };
    await tx.insert(turnEvents).values({ turnId, seq: (stored.at(-1)?.seq ?? -1) + 1, event: last });
    const [thread] = await tx.select({ operatorId: threads.operatorId }).from(threads).where(eq(threads.id, row.threadId));
    touch(turnTopic(row.threadId));
    // Its proposals wait now, as an ended turn's do: told as such (the outbox's `proposal.waiting` follows it).
    const told: ThreadChangeKind[] = ['turn_ended', 'message', ...(interrupted.proposals.length > 0 ? (['proposal'] as const) : [])];
    if (thread) for (const what of told) touch(threadChangeTopic(thread.operatorId, { thread: row.threadId, what }));
    this.deps.log.warn(`a turn of thread ${row.threadId} was interrupted (its server stopped renewing its lease); what it had said is stored`);
  }

  /** Ended turns and their events go a while after they end. */
  private async prune(): Promise<void> {
    await this.deps.db.delete(turns).where(lt(turns.endedAt, new Date(Date.now() - KEEP_ENDED_MS)));
  }
}

/** Whether a proposal of the thread waits for a decision. */
function waitingOn(threadId: string) {
  return sql<boolean>`exists (select 1 from ${proposals} where ${proposals.threadId} = ${threadId} and ${proposals.status} = 'pending')`;
}

/** The thread's running turn (its lease alive) as its view shows it, or null: a subquery beside the thread's row. */
export function runningTurnView(threadId: SQL): SQL<ThreadTurn | null> {
  return sql<ThreadTurn | null>`(select json_build_object('id', ${turns.id}, 'started_at', ${isoTime(turns.startedAt)}, 'agent', ${turns.agent}, 'cancelling', ${turns.cancelRequested})
    from ${turns} where ${turns.threadId} = ${threadId} and ${turns.endedAt} is null and ${turns.leaseUntil} > now() limit 1)`;
}

/** What followers see of an event: a proposal's stored input stays in the store. */
function streamed(event: StoredTurnEvent): TurnEvent {
  if (event.type !== 'proposal') return event;
  const { id, tool, title } = event;
  return { type: 'proposal', id, tool, title };
}

/** Follows a turn running here from memory, until its end or `signal`. */
function followHere(turn: RunningTurn, after: number, deliver: (numbered: NumberedEvent) => boolean, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let stop: (() => void) | null = null;
    const done = () => {
      stop?.();
      signal.removeEventListener('abort', done);
      resolve();
    };
    let finished = false;
    stop = turn.follow(after, (numbered) => {
      if (!finished && deliver(numbered)) {
        finished = true;
        queueMicrotask(done);
      }
    });
    if (finished) return;
    signal.addEventListener('abort', done);
  });
}
