// Outgoing webhooks of a project (DESIGN.md §14): an admin of the project
// (environment:manage) lists, adds, changes and removes them, and reads and
// redelivers their deliveries; each change is audited. A hook's secret is
// sealed under the instance key and shown once, in the answer that makes it.
// The outbox follows every transaction's change notices; each server's sender
// posts what is due.
import { and, desc, eq, sql } from 'drizzle-orm';
import { can, refusal } from '../access/can.js';
import type { Operator } from '../access/operators.js';
import type { WebhookConfig } from '../config.js';
import type { Actor } from '../domain/actions.js';
import type { AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { ProjectAccess } from '../domain/projects.js';
import type { SecretBox } from '../domain/secret-box.js';
import { forbidden, invalid, notFound } from '../errors.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { operators, webhookDeliveries, webhooks } from '../store/schema.js';
import type { DeliveryResponse, WebhookEvent, WebhookResponse } from '../wire/webhook.js';
import { enqueueTouched } from './outbox.js';
import { WebhookSender, type SenderLog } from './sender.js';
import { newSecret } from './signing.js';
import { targetRefusal } from './targets.js';

export interface WebhookDeps {
  db: Db;
  changes: Changes;
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
  config: WebhookConfig;
  log: SenderLog;
}

export interface HookInput {
  url?: string;
  events?: WebhookEvent[];
  active?: boolean;
}

const PERMISSION = 'environment:manage';

export class Webhooks {
  private sender: WebhookSender | null = null;

  constructor(private readonly deps: WebhookDeps) {
    deps.changes.beforeCommit(enqueueTouched);
  }

  /** Starts this server's sender, linking to the console at `consoleUrl`. */
  start(consoleUrl: string): void {
    this.sender = new WebhookSender(this.deps, consoleUrl);
    this.sender.start();
  }

  async close(): Promise<void> {
    await this.sender?.stop();
  }

  async list(operator: Operator, project: string): Promise<WebhookResponse[]> {
    const access = await this.admin(operator, project);
    const rows = await this.select(this.deps.db).where(eq(webhooks.projectId, access.id)).orderBy(webhooks.createdAt);
    return rows.map(view);
  }

  async create(by: Actor, project: string, input: Required<Pick<HookInput, 'url' | 'events'>> & HookInput): Promise<WebhookResponse> {
    const access = await this.admin(by.operator, project);
    this.check(input);
    const secret = newSecret();
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhooks)
        .values({ projectId: access.id, url: input.url, events: unique(input.events), active: input.active ?? true, sealedSecret: this.deps.secretBox.seal(secret), createdBy: by.operator.id })
        .returning({ id: webhooks.id });
      if (!row) throw new Error('webhook insert returned no row');
      await this.audit(tx, by, access, 'create_webhook', described(row.id, input));
      return { ...view(await this.one(tx, access, row.id)), secret };
    });
  }

  async update(by: Actor, project: string, id: string, input: HookInput): Promise<WebhookResponse> {
    const access = await this.admin(by.operator, project);
    this.check(input);
    return this.deps.db.transaction(async (tx) => {
      await this.one(tx, access, id);
      await tx
        .update(webhooks)
        .set({ ...(input.url === undefined ? {} : { url: input.url }), ...(input.events === undefined ? {} : { events: unique(input.events) }), ...(input.active === undefined ? {} : { active: input.active }) })
        .where(eq(webhooks.id, id));
      await this.audit(tx, by, access, 'update_webhook', described(id, input));
      return view(await this.one(tx, access, id));
    });
  }

  async remove(by: Actor, project: string, id: string): Promise<void> {
    const access = await this.admin(by.operator, project);
    await this.deps.db.transaction(async (tx) => {
      await this.one(tx, access, id);
      await tx.delete(webhooks).where(eq(webhooks.id, id));
      await this.audit(tx, by, access, 'delete_webhook', { webhook: id });
    });
  }

  /** The project's deliveries, newest first, of one hook when `webhook` is given. */
  async deliveries(operator: Operator, project: string, filter: { webhook?: string; limit: number }): Promise<DeliveryResponse[]> {
    const access = await this.admin(operator, project);
    if (filter.webhook !== undefined) await this.one(this.deps.db, access, filter.webhook);
    const rows = await selectDeliveries(this.deps.db)
      .where(and(eq(webhooks.projectId, access.id), filter.webhook === undefined ? undefined : eq(webhookDeliveries.webhookId, filter.webhook)))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(filter.limit);
    return rows.map(deliveryView);
  }

  /** Sends a delivery again, under the same id (receivers deduplicate on it), whatever became of it. */
  async redeliver(by: Actor, project: string, id: string): Promise<DeliveryResponse> {
    const access = await this.admin(by.operator, project);
    const row = await this.deps.db.transaction(async (tx) => {
      const [found] = isUuid(id) ? await selectDeliveries(tx).where(and(eq(webhookDeliveries.id, id), eq(webhooks.projectId, access.id))) : [];
      if (!found) throw notFound(`no such delivery in ${project}: ${id}`);
      await tx
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, deliveredAt: null })
        .where(eq(webhookDeliveries.id, id));
      await this.audit(tx, by, access, 'redeliver_webhook', { webhook: found.webhookId, delivery: id });
      const [again] = await selectDeliveries(tx).where(eq(webhookDeliveries.id, id));
      return again ?? found;
    });
    this.sender?.wake();
    return deliveryView(row);
  }

  /** The project as an admin of it sees it; else NotFound (not a member) or Forbidden with why. */
  private async admin(operator: Operator, project: string): Promise<ProjectAccess> {
    const access = await this.deps.projects.open(operator, project);
    if (!can(access.role, PERMISSION)) throw forbidden(`to manage webhooks ${refusal(access.role, PERMISSION, access.slug)}`);
    return access;
  }

  private check(input: HookInput): void {
    const refused = input.url === undefined ? null : targetRefusal(input.url, this.deps.config.allowPrivate);
    if (refused) throw invalid(refused);
    if (input.events?.length === 0) throw invalid('a webhook follows at least one event; name some in events');
  }

  private select(db: Db) {
    return db
      .select({ hook: webhooks, createdBy: operators.name })
      .from(webhooks)
      .leftJoin(operators, eq(operators.id, webhooks.createdBy));
  }

  private async one(db: Db, access: ProjectAccess, id: string) {
    const [row] = isUuid(id) ? await this.select(db).where(and(eq(webhooks.id, id), eq(webhooks.projectId, access.id))) : [];
    if (!row) throw notFound(`no such webhook in ${access.slug}: ${id}`);
    return row;
  }

  private async audit(tx: Db, by: Actor, access: ProjectAccess, tool: string, input: Record<string, unknown>): Promise<void> {
    await this.deps.audit.write(tx, { operator: by.operator.name, via: by.via, tool, project: access.slug, environment: null, outcome: 'ok', input, error: null });
  }
}

/** A hook's change as the audit keeps it: where it posts by host only, as a URL's path or query may hold a token. */
function described(id: string, { url, ...rest }: HookInput): Record<string, unknown> {
  return { webhook: id, ...(url === undefined ? {} : { host: new URL(url).host }), ...rest };
}

function unique(events: readonly WebhookEvent[]): WebhookEvent[] {
  return [...new Set(events)];
}

function view({ hook, createdBy }: { hook: typeof webhooks.$inferSelect; createdBy: string | null }): WebhookResponse {
  return { id: hook.id, url: hook.url, events: hook.events, active: hook.active, created_by: createdBy, created_at: hook.createdAt.toISOString() };
}

function selectDeliveries(db: Db) {
  return db.select({ delivery: webhookDeliveries, webhookId: webhooks.id }).from(webhookDeliveries).innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId));
}

function deliveryView({ delivery: d }: { delivery: typeof webhookDeliveries.$inferSelect }): DeliveryResponse {
  return {
    id: d.id,
    webhook: d.webhookId,
    event: d.event,
    summary: d.payload.summary,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: d.createdAt.toISOString(),
    delivered_at: d.deliveredAt?.toISOString() ?? null,
  };
}
