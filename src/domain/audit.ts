// The audit log. A write's entry commits in the write's own transaction; a
// read's entry is queued and written with others in one insert a few
// milliseconds later, so a read costs no round trip of its own (reading the
// log, and closing the server, write the queue first). The queue travels as
// one JSON parameter that the database unpacks: the embedded store runs in
// this thread, and binding thousands of parameters costs it four times more.
import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { auditEntries, type Outcome } from '../store/schema.js';

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
}

export interface AuditRecord {
  id: number;
  at: string;
  operator: string | null;
  via: string;
  tool: string;
  project: string | null;
  environment: string | null;
  thread: string | null;
  proposal: string | null;
  outcome: Outcome;
  input: unknown;
  error: string | null;
}

export interface AuditQuery {
  project: string;
  limit: number;
  tool?: string;
  operator?: string;
  /** Entries older than this id. */
  before?: number;
}

const FLUSH_AFTER_MS = 25;
const FLUSH_AT = 500;

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
      }
    });
    return this.flushing;
  }

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    await this.flush();
    const conditions: SQL[] = [eq(auditEntries.project, query.project)];
    if (query.tool) conditions.push(eq(auditEntries.tool, query.tool));
    if (query.operator) conditions.push(eq(auditEntries.operator, query.operator));
    if (query.before !== undefined) conditions.push(lt(auditEntries.id, query.before));
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

function rowOf(entry: AuditEntry): Row {
  return {
    at: new Date().toISOString(),
    operator: entry.operator,
    via: entry.via,
    tool: entry.tool,
    project: entry.project,
    environment: entry.environment,
    thread_id: entry.threadId ?? null,
    proposal_id: entry.proposalId ?? null,
    outcome: entry.outcome,
    input: entry.input ?? {},
    error: entry.error ?? null,
  };
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
