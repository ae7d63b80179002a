// The thread's agent lease: one agent process per thread across the servers
// sharing the store. A turn takes the lease for the server it runs on, even
// from another live server (the turn needs the agent here), and announces
// it, so the old holder stops its process at once. The holder renews every
// lease it holds a third of a lease apart, in one statement, with its hosted
// agents' credentials, which otherwise expire within four leases (a minute at
// the default 15 s): a dead server's agents lose their access soon. A lease
// renewed no longer, or announced as taken, stops the process here. A server
// starting again under its name lets go of what its previous life held.
import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../config.js';
import { revokeAgentCredentials, renewAgentCredentials } from '../conversation/credentials.js';
import { messageOf } from '../errors.js';
import type { Changes } from '../store/changes.js';
import { storeNow } from '../store/clock.js';
import type { Db } from '../store/db.js';
import { threads } from '../store/schema.js';
import { announceServer, withdrawServer } from './servers.js';

/** A hosted agent's credential lives this many leases past its holder's last renewal. */
const CREDENTIAL_LEASES = 4;
const TOPIC_PREFIX = 'agent:';

export interface AgentLeaseDeps {
  db: Db;
  changes: Changes;
  config: Pick<Config, 'agents' | 'serverName' | 'turnLeaseMs'>;
  log: (message: string) => void;
}

/** The process here lost the thread's agent: another server took the lease, or the thread was deleted (`gone`). */
export type LostLease = (threadId: string, gone: boolean) => void;

/** One hold of a lease; taking it again makes a new one, so a late word about the old hold changes nothing. */
interface Hold {
  /** The credential of the agent started under it, renewed with the lease. */
  credentialId: string | null;
}

export class AgentLeases {
  private readonly held = new Map<string, Hold>();
  /** Per thread, this server's lease writes in the order asked: a release never lands after a later take. */
  private readonly queue = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe = () => {};
  private renewing: Promise<void> | null = null;
  /** How long a hosted agent's credential is valid past its last renewal. */
  readonly credentialMs: number;

  constructor(
    private readonly deps: AgentLeaseDeps,
    private readonly lost: LostLease,
  ) {
    this.credentialMs = CREDENTIAL_LEASES * deps.config.turnLeaseMs;
  }

  private get me(): string {
    return this.deps.config.serverName;
  }

  /** Lets go of the previous life's leases and credentials, records this server and its agents, then renews. */
  async open(): Promise<void> {
    const { db, changes } = this.deps;
    await changes.transaction(db, async (tx, touch) => {
      const released = await tx
        .update(threads)
        .set({ agentServer: null, agentLeaseUntil: null })
        .where(eq(threads.agentServer, this.me))
        .returning({ id: threads.id });
      await revokeAgentCredentials(
        tx,
        touch,
        released.map((r) => r.id),
      );
    });
    await announceServer(db, this.me, this.agentNames());
    this.unsubscribe = changes.subscribe((topic) => {
      // Notices were missed while nobody heard: the renewal finds what was lost meanwhile.
      if (topic === '*') this.tick();
      else if (topic.startsWith(TOPIC_PREFIX)) void this.heard(topic.slice(TOPIC_PREFIX.length));
    });
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(this.deps.config.turnLeaseMs / 3)));
    this.timer.unref();
  }

  /** Stops renewing; the server no longer offers its agents. Leases are released by stopping each agent first. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    await this.renewing;
    await withdrawServer(this.deps.db, this.me).catch((error: unknown) => this.deps.log(`this server's record could not be removed: ${messageOf(error)}`));
  }

  /**
   * Takes the thread's agent lease for this server, whoever held it; the
   * holder it was taken from hears it. True when it was this server's
   * already: a process here is then the thread's one; otherwise any process
   * here is stale (it missed turns run elsewhere).
   */
  take(threadId: string): Promise<boolean> {
    return this.serial(threadId, async () => {
      const previous = await this.deps.changes.transaction(this.deps.db, async (tx, touch) => {
        const [row] = await tx.select({ server: threads.agentServer }).from(threads).where(eq(threads.id, threadId)).for('update');
        if (!row) return { found: false, server: null };
        await tx
          .update(threads)
          .set({ agentServer: this.me, agentLeaseUntil: storeNow(this.deps.config.turnLeaseMs) })
          .where(eq(threads.id, threadId));
        if (row.server !== null && row.server !== this.me) touch(`${TOPIC_PREFIX}${threadId}`);
        return { found: true, server: row.server };
      });
      const ours = previous.server === this.me && this.held.has(threadId);
      if (previous.found && !ours) this.held.set(threadId, { credentialId: null });
      return ours;
    });
  }

  /** The credential minted for the agent started under the thread's lease: renewed with it. */
  holdCredential(threadId: string, credentialId: string): void {
    const hold = this.held.get(threadId);
    if (hold) hold.credentialId = credentialId;
  }

  /** Lets go of the thread's lease, when it is still this server's; a failure leaves it to expire. */
  release(threadId: string): Promise<void> {
    return this.serial(threadId, async () => {
      this.held.delete(threadId);
      await this.deps.db
        .update(threads)
        .set({ agentServer: null, agentLeaseUntil: null })
        .where(and(eq(threads.id, threadId), eq(threads.agentServer, this.me)));
    }).catch((error: unknown) => this.deps.log(`the agent lease of thread ${threadId} could not be released; it expires: ${messageOf(error)}`));
  }

  private serial<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const next = (this.queue.get(threadId) ?? Promise.resolve()).then(work);
    const settled = next.catch(() => undefined);
    this.queue.set(threadId, settled);
    void settled.then(() => {
      if (this.queue.get(threadId) === settled) this.queue.delete(threadId);
    });
    return next;
  }

  private tick(): void {
    if (this.renewing) return;
    this.renewing = this.renew()
      .catch((error: unknown) => this.deps.log(`agent leases could not be renewed; they expire unless the next renewal works: ${messageOf(error)}`))
      .finally(() => {
        this.renewing = null;
      });
  }

  /** One statement renews every lease this server holds; a lease no longer its own stops its process. */
  private async renew(): Promise<void> {
    const { db, config } = this.deps;
    const holds = [...this.held];
    if (holds.length > 0) {
      const renewed = await db
        .update(threads)
        .set({ agentLeaseUntil: storeNow(config.turnLeaseMs) })
        .where(
          and(
            inArray(
              threads.id,
              holds.map(([id]) => id),
            ),
            eq(threads.agentServer, this.me),
          ),
        )
        .returning({ id: threads.id });
      const kept = new Set(renewed.map((r) => r.id));
      await renewAgentCredentials(
        db,
        holds.flatMap(([id, hold]) => (kept.has(id) && hold.credentialId ? [hold.credentialId] : [])),
        this.credentialMs,
      );
      const lost = holds.filter(([id]) => !kept.has(id));
      if (lost.length > 0) await this.letGo(lost);
    }
    await announceServer(db, this.me, this.agentNames());
  }

  /** Another server announced it took the thread's lease (or the thread went): the process here stops, unless the lease is this server's again. */
  private async heard(threadId: string): Promise<void> {
    const hold = this.held.get(threadId);
    if (!hold) return;
    await this.letGo([[threadId, hold]]).catch((error: unknown) =>
      this.deps.log(`the agent lease of thread ${threadId} could not be read; the next renewal checks it: ${messageOf(error)}`),
    );
  }

  /** Of these holds, those that are not this server's in the store are lost: their processes stop. */
  private async letGo(holds: [string, Hold][]): Promise<void> {
    const rows = await this.deps.db
      .select({ id: threads.id, server: threads.agentServer })
      .from(threads)
      .where(
        inArray(
          threads.id,
          holds.map(([id]) => id),
        ),
      );
    const holders = new Map(rows.map((r) => [r.id, r.server]));
    for (const [threadId, hold] of holds) {
      // Taken again here meanwhile (a new hold), or still this server's: nothing is lost.
      if (this.held.get(threadId) !== hold || holders.get(threadId) === this.me) continue;
      this.held.delete(threadId);
      this.lost(threadId, !holders.has(threadId));
    }
  }

  private agentNames(): string[] {
    return this.deps.config.agents.map((agent) => agent.name);
  }
}
