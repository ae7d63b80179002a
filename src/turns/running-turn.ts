// A turn running on this server, as both kinds of turn hold it: its events
// (numbered, kept in memory for followers here and written to the store in
// batches for followers elsewhere), its proposals (stored with the next batch,
// and heard of by no follower before they are stored, so a turn that dies
// leaves waiting every proposal anyone saw), and its cancel, heard from any
// server.
import { sql } from 'drizzle-orm';
import type { PendingProposal } from './proposal.js';
import type { Changes } from '../store/changes.js';
import { queryRows, type Db } from '../store/db.js';
import { turnEvents, turns } from '../store/schema.js';
import type { TurnEvent } from '../wire/turn-event.js';
import { turnTopic } from './topics.js';

/** An event as stored: a proposal's carries what recovery needs to store it, never streamed. */
export type StoredTurnEvent = TurnEvent | (Extract<TurnEvent, { type: 'proposal' }> & { pending: PendingProposal });

export interface NumberedEvent {
  seq: number;
  event: StoredTurnEvent;
}

/** Progress waits this long for company before it is written: a short turn writes its events once, with its answer. */
const FLUSH_DELAY_MS = 40;
/** What a turn's stored events may weigh; past it progress is streamed here but not stored (the answer keeps it all). */
const MAX_STORED_CHARS = 1 << 20;

export class RunningTurn {
  private readonly log: NumberedEvent[] = [];
  private readonly listeners = new Set<(numbered: NumberedEvent) => void>();
  private readonly cancel = new AbortController();
  /** How many of `log` are in the store. */
  private stored = 0;
  /** How many of `log` the followers here have heard: none past a proposal not yet stored. */
  private delivered = 0;
  private storedChars = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private ending = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly pending: PendingProposal[] = [];
  /** How long writing its events took, for the metrics. */
  private writing = 0;

  constructor(
    readonly id: string,
    readonly threadId: string,
    readonly agent: string | null,
    private readonly store: { db: Db; changes: Changes },
  ) {}

  /** Aborted when the turn is cancelled, from this server or any other. */
  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  get cancelled(): boolean {
    return this.cancel.signal.aborted;
  }

  requestCancel(): void {
    this.cancel.abort();
  }

  /** The proposals made so far, in order. */
  get proposals(): readonly PendingProposal[] {
    return this.pending;
  }

  /** Progress: streamed at once to followers here (unless it follows a proposal not yet stored), stored shortly. */
  emit(event: TurnEvent): void {
    this.log.push({ seq: this.log.length, event });
    this.deliver();
    this.flushSoon();
  }

  private flushSoon(): void {
    // Once the turn is ending, what comes goes with its end.
    if (!this.ending) this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  /**
   * Before the transaction that ends the turn: no batch is written from now
   * on, and the one being written is done. (On the embedded store, one
   * connection, a batch waiting behind that transaction would wait for it
   * while it waited for the batch.)
   */
  async settle(): Promise<void> {
    this.ending = true;
    this.stopFlushing();
    await this.flushing;
  }

  /**
   * A proposal: the model hears at once that it waits; followers hear of it
   * (and of what comes after it) once it is stored, with the next batch or
   * the turn's end, whichever comes first.
   */
  propose(proposal: PendingProposal & { id: string }): void {
    this.pending.push(proposal);
    const event = { type: 'proposal' as const, id: proposal.id, tool: proposal.tool, title: proposal.title };
    this.log.push({ seq: this.log.length, event: { ...event, pending: proposal } });
    this.flushSoon();
  }

  /** The events after `seq` (all with -1) that followers may hear, then each one as it may, until the returned function is called. */
  follow(after: number, listener: (numbered: NumberedEvent) => void): () => void {
    for (const numbered of this.log.slice(after + 1, this.delivered)) listener(numbered);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Inside the transaction that stores the turn's answer (or its failure),
   * after `settle`: ends the turn's row and writes the events not yet stored
   * with its last one, in one statement. Followers here hear the rest after
   * the commit, from `ended`. Null when the row had ended already (another
   * server took the turn as interrupted): nothing is written.
   */
  async storeEnd(tx: Db, last: Extract<TurnEvent, { type: 'ended' }>): Promise<NumberedEvent | null> {
    if (!this.ending) throw new Error('settle() the turn before the transaction that ends it');
    const numbered = { seq: this.log.length, event: last };
    this.log.push(numbered);
    const started = performance.now();
    const written = await queryRows<{ seq: number }>(
      tx,
      sql`
      with ended as (
        update ${turns} set ended_at = now(), stop_reason = ${last.stop_reason} where id = ${this.id} and ended_at is null returning id
      )
      insert into ${turnEvents} (turn_id, seq, event)
      select ended.id, e.seq, e.event from ended, jsonb_to_recordset(${JSON.stringify(this.storable(this.log.slice(this.stored)).events)}::jsonb) as e(seq int, event jsonb)
      returning seq`,
    );
    // The whole statement counts as the events' cost, the row's end with it: a bound, not an estimate.
    this.writing += performance.now() - started;
    return written.length > 0 ? numbered : null;
  }

  /** Tells the followers here the rest of the turn and how it ended, once that is stored. */
  ended(): void {
    this.stored = this.log.length;
    this.deliver();
    this.listeners.clear();
  }

  /** Tells the followers here what they may hear: up to the first proposal not yet stored. */
  private deliver(): void {
    while (this.delivered < this.log.length) {
      const numbered = this.log[this.delivered];
      if (!numbered || (numbered.event.type === 'proposal' && this.delivered >= this.stored)) return;
      this.delivered++;
      for (const listener of this.listeners) listener(numbered);
    }
  }

  private stopFlushing(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /** Writes what is not stored yet, one batch at a time, announced to the other servers. */
  private flush(): void {
    this.stopFlushing();
    const run = this.flushing.then(async () => {
      const batch = this.log.slice(this.stored);
      if (batch.length === 0) return;
      // One statement needs no transaction of its own; the other servers hear of it once it is in.
      const started = performance.now();
      const { events, chars } = this.storable(batch);
      if (events.length > 0) await this.store.db.insert(turnEvents).values(events.map(({ seq, event }) => ({ turnId: this.id, seq, event })));
      this.writing += performance.now() - started;
      // Counted once written: a batch that failed is counted when it is tried again.
      this.storedChars = chars;
      await this.store.changes.announce(this.store.db, [turnTopic(this.threadId)]);
      this.stored += batch.length;
      this.deliver();
    });
    // A failed write is tried again with the next batch or the turn's end.
    this.flushing = run.catch(() => undefined);
  }

  /** Seconds spent writing this turn's events so far. */
  get writeSeconds(): number {
    return this.writing / 1000;
  }

  /** The events of `batch` to store (proposals and the end always, progress within the bound), and what all stored would weigh. */
  private storable(batch: NumberedEvent[]): { events: NumberedEvent[]; chars: number } {
    let chars = this.storedChars;
    const events = batch.filter(({ event }) => {
      const size = JSON.stringify(event).length;
      const essential = event.type === 'proposal' || event.type === 'ended';
      if (!essential && chars + size > MAX_STORED_CHARS) return false;
      chars += size;
      return true;
    });
    return { events, chars };
  }
}
