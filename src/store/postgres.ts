// The store on PostgreSQL (DATABASE_URL): a pool that reconnects, migrations
// under an advisory lock, and LISTEN on a connection of its own. Every
// connection of the pool and the listener bounds its waits (DESIGN §14).
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { reconnectingDb } from './connection-loss.js';
import type { DbLimits } from '../config.js';
import type { Store } from './db.js';
import { MIGRATIONS_FOLDER } from './migrations-folder.js';

const MIGRATION_LOCK = 0x41_49_4f_4e; // "AION"

/**
 * The startup parameters that bound a connection's waits, so a stalled server's
 * transaction holds its locks at most `idleInTransactionMs` and a request waits
 * on one at most `lockTimeoutMs`. An idle connection (the listener's, between
 * notices) is never cut: the limits count only inside statements and transactions.
 */
function bounded(limits: DbLimits | undefined): pg.ClientConfig {
  if (!limits) return {};
  return {
    lock_timeout: limits.lockTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
  };
}

export function openPostgres(url: string, limits?: DbLimits): Store & { migrate(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10, ...bounded(limits) });
  // A dropped idle connection must not crash the server; the next query reconnects.
  pool.on('error', () => {});
  const db = reconnectingDb(pool);
  const listening = new PostgresListener({ connectionString: url, ...bounded(limits) });
  return {
    kind: 'postgres',
    db,
    repairedModes: 0,
    // Unbounded, as is migrating: a server waits out another's migrations, and a migration may run long on a big store.
    exclusive: async (work) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        return await work();
      } finally {
        await client.end();
      }
    },
    migrate: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.end();
      }
    },
    listen: (channel, listener, connection) => listening.listen(channel, listener, connection),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await listening.close();
      await pool.end();
    },
  };
}

/** The first pause before listening again after the connection dropped; it doubles up to the longest. */
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * LISTEN needs a connection of its own that stays open. When it drops, it
 * tells `connection` false, then tries again with backoff for as long as the
 * server runs (telling false again after each failed try); once listening
 * again, it tells `connection` true.
 */
class PostgresListener {
  private client: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  async listen(channel: string, listener: (payload: string) => void, connection?: (connected: boolean) => void): Promise<void> {
    if (connection) this.connectionListeners.add(connection);
    const known = this.listeners.get(channel);
    if (known) {
      known.add(listener);
      return;
    }
    this.listeners.set(channel, new Set([listener]));
    // While a retry is pending, it will listen on this channel too.
    if (this.retry) return;
    if (this.client) await this.client.query(`listen ${quoted(channel)}`);
    else await this.open();
  }

  /** A new connection listening on every channel; kept only once it listens. */
  private async open(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`listen ${quoted(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    this.tell(false);
    this.schedule(FIRST_RETRY_MS);
  }

  private schedule(ms: number): void {
    this.retry = setTimeout(() => {
      this.open().then(
        () => {
          this.retry = null;
          if (this.closed) return this.client?.end().catch(() => {});
          this.tell(true);
        },
        () => {
          if (this.closed) return;
          this.tell(false);
          this.schedule(Math.min(ms * 2, LONGEST_RETRY_MS));
        },
      );
    }, ms);
    this.retry.unref();
  }

  private tell(connected: boolean): void {
    for (const listener of this.connectionListeners) listener(connected);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

function quoted(channel: string): string {
  return `"${channel.replaceAll('"', '')}"`;
}
