// Change notices: what a committed write touched, told to this server's
// caches and waiters at once and to every other server through NOTIFY, which
// PostgreSQL delivers only when the transaction commits.
import { sql } from 'drizzle-orm';
import type { Db, Store } from './db.js';

const CHANNEL = 'aion_changes';

/** `project:<id>` (anything in a project), `token:<id>`, `thread:<id>` (a conversation's shared context); `*` means anything. */
export type Topic = `project:${string}` | `token:${string}` | `thread:${string}` | '*';

export type ChangeListener = (topic: Topic) => void;

export class Changes {
  private readonly listeners = new Set<ChangeListener>();

  static async open(store: Store): Promise<Changes> {
    const changes = new Changes();
    await store.listen(CHANNEL, (payload) => changes.emit(payload as Topic));
    return changes;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` in a transaction; each topic it touches is announced to the
   * other servers on commit and to this one right after.
   */
  async transaction<T>(db: Db, work: (tx: Db, touch: (topic: Topic) => void) => Promise<T>): Promise<T> {
    const touched = new Set<Topic>();
    const result = await db.transaction(async (tx) => {
      const value = await work(tx, (topic) => touched.add(topic));
      for (const topic of touched) await tx.execute(sql`select pg_notify(${CHANNEL}, ${topic})`);
      return value;
    });
    for (const topic of touched) this.emit(topic);
    return result;
  }

  private emit(topic: Topic): void {
    for (const listener of this.listeners) listener(topic);
  }
}
