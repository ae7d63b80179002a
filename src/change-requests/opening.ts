// Opening a change request, inside the transaction of the write it holds (the
// executor's): what would change and the checker's verdict, who asked and why,
// the input with its secret values sealed, when it expires.
import { and, desc, eq } from 'drizzle-orm';
import type { Topic } from '../store/changes.js';
import { storeNow } from '../store/clock.js';
import type { Db } from '../store/db.js';
import { changeRequests, messages } from '../store/schema.js';
import type { RequestedChange } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import type { ChangeRequestDeps } from './deps.js';
import { changeRequestTopic } from './topics.js';
import { sentenceOf } from './views.js';
import { whatChanges } from './what-changes.js';

export async function openRequest(deps: ChangeRequestDeps, tx: Db, touch: (topic: Topic) => void, held: RequestedChange): Promise<ToolResult> {
  const { id, tool, input, project, environment } = held;
  const { change, verdict } = await whatChanges(tx, { tool: tool.name, input, project, environment });
  const permission = tool.permission ?? 'project:read';
  const [row] = await tx
    .insert(changeRequests)
    .values({
      id,
      projectId: project.id,
      environmentId: environment.id,
      tool: tool.name,
      // The executor redacts a copy of the input, an object: its `redacted` is typed for any tool's input.
      input: held.redacted as Record<string, unknown>,
      sealed: sealedFields(deps, held),
      permission,
      rows: held.rows,
      requesterId: held.operator.id,
      via: held.via,
      reason: held.threadId ? await lastOperatorMessage(tx, held.threadId) : typeof input.reason === 'string' ? input.reason : null,
      threadId: held.threadId,
      proposalId: held.proposalId,
      change,
      verdict,
      expiresAt: storeNow(deps.ttlMs),
    })
    .returning({ expiresAt: changeRequests.expiresAt });
  if (!row) throw new Error('change request insert returned no row');
  touch(changeRequestTopic({ project: project.slug, id, status: 'pending' }));
  const { approvalsRequired } = held;
  const facts = { status: 'pending', tool: tool.name, project: project.slug, environment: environment.name, permission, approvalsRequired } as const;
  return {
    project: project.slug,
    environment: environment.name,
    ran: false,
    change_request: { id, status: 'pending', expires_at: row.expiresAt.toISOString() },
    message: `change request ${id} opened: ${sentenceOf({ ...facts, decidedBy: null, comment: null, result: null, expiresAt: row.expiresAt, staleReason: null, approvedBy: [] })}`,
  };
}

/** The input's secret values, sealed under the instance key; null when it holds none. */
function sealedFields(deps: ChangeRequestDeps, { tool, input }: RequestedChange): string | null {
  const fields = tool.secretFields.filter((field) => field in input);
  if (fields.length === 0) return null;
  return deps.secretBox.seal(JSON.stringify(Object.fromEntries(fields.map((field) => [field, input[field]]))));
}

/** The input an approved request runs with: its sealed values opened again. */
export function unsealedInput(deps: Pick<ChangeRequestDeps, 'secretBox'>, input: Record<string, unknown>, sealed: string | null): Record<string, unknown> {
  return sealed === null ? input : { ...input, ...(JSON.parse(deps.secretBox.open(sealed)) as Record<string, unknown>) };
}

/** Why a proposal's change was asked: the last thing the operator said in its thread. */
async function lastOperatorMessage(tx: Db, threadId: string): Promise<string | null> {
  const [row] = await tx
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.role, 'user')))
    .orderBy(desc(messages.id))
    .limit(1);
  return row?.text ?? null;
}
