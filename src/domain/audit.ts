// The audit log. A write's entry commits in the write's own transaction; a
// read's entry is queued and written with others in one insert a few
// milliseconds later, so a read costs no round trip of its own (reading the
// log, and closing the server, write the queue first). The queue travels as
// one JSON parameter that the database unpacks: the embedded store runs in
// this thread, and binding thousands of parameters costs it four times more.
// Every entry is stored: what the store cannot hold (NUL, lone surrogates,
// nesting thousands deep, megabytes of text) is made storable first, and the
// entry says so; a batch the store refuses anyway is written entry by entry,
// so one entry never takes another with it.
import { and, desc, eq, gte, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { auditEntries, type Outcome } from '../store/schema.js';
import { replaceUnstorable, storableJson } from '../store/storable.js';
import { messageOf } from '../errors.js';
import type { AuditRecord } from '../wire/audit.js';

export interface AuditEntry {
  operator: string | null;
  via: string;
  tool: string;
  project: string | null;
  environment: string | null;
  threadId?: string | null;
  proposalId?: string | null;
  outcome: Outcome;
  /** Already redacted: no secret value may be in it. */
  input: unknown;
  error?: string | null;
  /** When it happened, for an entry written after the fact (a batch's, at its end); else when it is written. */
  at?: Date;
}

export interface AuditQuery {
  project: string;
  limit: number;
  tool?: string;
  operator?: string;
  /** Entries about this environment. */
  environment?: string;
  outcome?: Outcome;
  /** Entries older than this id. */
  before?: number;
  /** Entries at or after this time, and before `until`. */
  since?: Date;
  until?: Date;
  /** Leaves out runs of these tools (the reads, when only changes are wanted). */
  excludeTools?: readonly string[];
}

const FLUSH_AFTER_MS = 25;
const FLUSH_AT = 500;
/** How much of an input an entry keeps. */
const INPUT_LIMITS = { depth: 32, stringLength: 65_536 };
/** Names are short; an indexed column must stay under the index's row size. */
const NAME_LENGTH = 200;
const ERROR_LENGTH = 4_000;

/** An entry in the shape of the table's columns. */
interface Row {
  at: string;
  operator: string | null;
  via: string;
  tool: string;
  project: string | null;
  environment: string | null;
  thread_id: string | null;
  proposal_id: string | null;
  outcome: Outcome;
  input: unknown;
  error: string | null;
}

export class AuditLog {
  private queue: Row[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** In the transaction of the write it records. */
  async write(tx: Db, entry: AuditEntry): Promise<void> {
    await insertRows(tx, [rowOf(entry)]);
  }

  /** Several, in order, in one insert, in the transaction of the writes they record. */
  async writeAll(tx: Db, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length > 0) await insertRows(tx, entries.map(rowOf));
  }

  /** Queues the entry of a read; it is written within milliseconds. */
  record(entry: AuditEntry): void {
    this.queue.push(rowOf(entry));
    if (this.queue.length >= FLUSH_AT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Writes every queued entry; resolves once they are stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await insertRows(this.db, batch);
      } catch (error) {
        this.onError(error);
        await this.insertOneByOne(batch);
      }
    });
    return this.flushing;
  }

  /** After a refused batch: each entry alone, and one the store still refuses as what is left of it. */
  private async insertOneByOne(batch: Row[]): Promise<void> {
    for (const row of batch) {
      try {
        await insertRows(this.db, [row]);
      } catch (error) {
        this.onError(error);
        const sentence = messageOf(error);
        await insertRows(this.db, [{ ...row, input: { unstorable: `the store refused this entry's input: ${sentence}` } }]).catch(this.onError);
      }
    }
  }

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    await this.flush();
    const conditions: SQL[] = [eq(auditEntries.project, query.project)];
    if (query.tool) conditions.push(eq(auditEntries.tool, query.tool));
    if (query.operator) conditions.push(eq(auditEntries.operator, query.operator));
    if (query.environment) conditions.push(eq(auditEntries.environment, query.environment));
    if (query.outcome) conditions.push(eq(auditEntries.outcome, query.outcome));
    if (query.before !== undefined) conditions.push(lt(auditEntries.id, query.before));
    if (query.since) conditions.push(gte(auditEntries.at, query.since));
    if (query.until) conditions.push(lt(auditEntries.at, query.until));
    if (query.excludeTools?.length) conditions.push(notInArray(auditEntries.tool, [...query.excludeTools]));
    const rows = await this.db
      .select()
      .from(auditEntries)
      .where(and(...conditions))
      .orderBy(desc(auditEntries.id))
      .limit(query.limit);
    return rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      operator: r.operator,
      via: r.via,
      tool: r.tool,
      project: r.project,
      environment: r.environment,
      thread: r.threadId,
      proposal: r.proposalId,
      outcome: r.outcome,
      input: r.input,
      error: r.error,
    }));
  }
}

/** The entry as the store can hold it; what had to change is said in its input. */
function rowOf(entry: AuditEntry): Row {
  const changes: string[] = [];
  const text = <T extends string | null>(value: T, length: number): T => {
    if (value === null) return value;
    const cleaned = replaceUnstorable(value);
    if (cleaned.replaced > 0 || cleaned.text.length > length) changes.push('names or the error sentence made storable');
    return cleaned.text.slice(0, length) as T;
  };
  const id = (value: string | null | undefined) => {
    if (!value || isUuid(value)) return value ?? null;
    changes.push('an id that is no UUID left out');
    return null;
  };
  const input = storableJson(entry.input ?? {}, INPUT_LIMITS);
  const row: Row = {
    at: (entry.at ?? new Date()).toISOString(),
    operator: text(entry.operator, NAME_LENGTH),
    via: text(entry.via, NAME_LENGTH),
    tool: text(entry.tool, NAME_LENGTH),
    project: text(entry.project, NAME_LENGTH),
    environment: text(entry.environment, NAME_LENGTH),
    thread_id: id(entry.threadId),
    proposal_id: id(entry.proposalId),
    outcome: entry.outcome,
    input: input.value,
    error: text(entry.error ?? null, ERROR_LENGTH),
  };
  const altered = [...new Set([...changes, ...input.changes])];
  return altered.length === 0 ? row : { ...row, input: { sanitised: `${altered.join('; ')}`, input: input.value } };
}

/** Rows travel as one JSON parameter that the database unpacks. */
async function insertRows(db: Db, rows: Row[]): Promise<void> {
  await db.execute(sql`
    insert into ${auditEntries} (at, operator, via, tool, project, environment, thread_id, proposal_id, outcome, input, error)
    select at, operator, via, tool, project, environment, thread_id, proposal_id, outcome, input, error
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as queued(
      at timestamptz, operator text, via text, tool text, project text, environment text,
      thread_id uuid, proposal_id uuid, outcome text, input jsonb, error text)`);
}
