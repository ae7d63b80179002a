// What a change request would change, read as it stands: for a deploy or a
// rollback, what is live and what would be, the diff between them and the
// checker's verdict for the environment; for a secret, its name and version
// (never its value); for the protection, from and to. Read again at approval,
// what moved since makes the request stale.
import { assertDeployable, liveAt, rollbackTarget } from '../domain/deployments.js';
import { diagnosticsFor, readRevision } from '../domain/documents.js';
import { lockEnvironment } from '../domain/environment-lock.js';
import { protectionAfter, type Environment, type ProjectAccess } from '../domain/projects.js';
import { noSuchSecret, secretVersion } from '../domain/secrets.js';
import { unifiedDiff } from '../documents/index.js';
import { AppError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { Change, Verdict } from '../wire/change-request.js';

/** A write to an environment, as a change request holds it. */
export interface Target {
  tool: string;
  input: Record<string, unknown>;
  project: ProjectAccess;
  environment: Environment;
}

export interface WhatChanges {
  change: Change;
  verdict: Verdict;
}

/** What the write would change now; refuses (its typed error) what could not run at all, as the tool would. */
export async function whatChanges(db: Db, target: Target): Promise<WhatChanges> {
  const { tool, input, environment } = target;
  switch (tool) {
    case 'deploy':
    case 'rollback':
      return documentChange(db, target, tool === 'rollback');
    case 'set_secret':
    case 'delete_secret': {
      const name = String(input.name);
      const version = await secretVersion(db, environment.id, name);
      if (tool === 'delete_secret' && version === null) throw noSuchSecret(name, environment);
      return { change: { kind: 'secret', name, action: tool === 'set_secret' ? 'set' : 'delete', version }, verdict: null };
    }
    case 'set_environment_protection': {
      const was = await lockEnvironment(db, environment);
      const change = {
        protected: input.protected as boolean | undefined,
        approvalsRequired: input.approvals_required as number | undefined,
        requesterMayApprove: input.requester_may_approve as boolean | undefined,
      };
      const now = protectionAfter(environment.name, was, change);
      return {
        change: {
          kind: 'protection',
          protected: { from: was.protected, to: now.protected },
          approvals_required: { from: was.approvalsRequired, to: now.approvalsRequired },
          requester_may_approve: { from: was.requesterMayApprove, to: now.requesterMayApprove },
        },
        verdict: null,
      };
    }
  }
  // Every write that takes an environment is described above (test/change-requests/paths.test.ts, "describes every write that takes an environment", holds it to that).
  throw new Error(`${tool} takes an environment, and what it would change is not described`);
}

async function documentChange(db: Db, { input, project, environment }: Target, rollback: boolean): Promise<WhatChanges> {
  const path = String(input.path);
  assertDeployable(path);
  const live = await liveAt(db, environment, path);
  const named = typeof input.revision === 'number' ? input.revision : undefined;
  const revision = rollback ? await rollbackTarget(db, environment, path) : named;
  const target = await readRevision(db, project, path, revision);
  const liveText = live ? (await readRevision(db, project, path, live.revision)).text : '';
  const liveLabel = live ? `r${live.revision} (live in ${environment.name})` : `(not live in ${environment.name})`;
  const diagnostics = await diagnosticsFor(db, project, environment, path, target.text);
  return {
    change: {
      kind: 'document',
      path,
      rollback,
      live,
      revision: target.revision,
      current_revision: target.current_revision,
      pinned: rollback || named !== undefined,
      diff: unifiedDiff(path, liveLabel, liveText, `r${target.revision}`, target.text),
    },
    verdict: { ok: diagnostics.length === 0, diagnostics },
  };
}

/**
 * Why the request may no longer run — what it would change moved since it was
 * asked (another deploy, a newer revision, a secret set meanwhile) — or null.
 */
export async function movedSince(db: Db, target: Target, asked: Change): Promise<string | null> {
  let now: Change;
  try {
    now = (await whatChanges(db, target)).change;
  } catch (error) {
    if (error instanceof AppError) return `it can no longer run: ${error.message}`;
    throw error;
  }
  const where = target.environment.name;
  if (asked.kind === 'document' && now.kind === 'document') {
    if (asked.live?.deployment !== now.live?.deployment) {
      const live = (l: typeof now.live) => (l ? `deployment ${l.deployment}, r${l.revision}` : 'nothing');
      return `${asked.path} changed in ${where} since it was asked: ${live(now.live)} is live there now, not ${live(asked.live)}`;
    }
    if (!asked.pinned && now.current_revision !== asked.current_revision) {
      return `${asked.path} has a newer revision, r${now.current_revision}, than the r${asked.revision} it would deploy; ask again to deploy the newest`;
    }
    return null;
  }
  if (asked.kind === 'secret' && now.kind === 'secret') {
    const version = (v: number | null) => (v === null ? 'not set' : `version ${v}`);
    return asked.version === now.version ? null : `${asked.name} changed in ${where} since it was asked: ${version(now.version)} now, not ${version(asked.version)}`;
  }
  if (asked.kind === 'protection' && now.kind === 'protection') {
    const same =
      asked.protected.from === now.protected.from &&
      asked.approvals_required.from === now.approvals_required.from &&
      (asked.requester_may_approve?.from ?? false) === now.requester_may_approve?.from;
    return same ? null : `the protection of ${where} changed since it was asked`;
  }
  return null;
}

/** The input the approved change runs with: a deploy of "the current revision" deploys the revision that was reviewed. */
export function asReviewed(input: Record<string, unknown>, change: Change): Record<string, unknown> {
  return change.kind === 'document' && !change.rollback ? { ...input, revision: change.revision } : input;
}
