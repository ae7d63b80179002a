// Every query key the console uses, made here and nowhere else. A key starts
// with its kind's name, then what it narrows by; called with fewer arguments
// a kind gives the prefix that matches every query of it under them, which is
// how the tab reads a kind again (`queryKeys.documents()`: every project's
// documents; `queryKeys.secrets(project)`: each environment's secrets).
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChangeRequestStatus } from '../../../src/wire/change-request';
import type { Show } from '../change-requests/queries';

/** `T` and each shorter tuple it starts with: [a, b] → [a, b] | [a] | []. */
type Prefix<T extends readonly unknown[]> = T extends readonly [...infer Head, unknown] ? T | Prefix<Head> : T;

function kind<Args extends readonly unknown[] = []>(name: string) {
  return (...args: Prefix<Args>) => [name, ...args] as const;
}

export const queryKeys = {
  whoami: kind('whoami'),
  projects: kind('projects'),
  /** A project as the operator sees it: role, environments and their protection. */
  project: kind<[slug: string | undefined]>('project'),
  tools: kind<[project: string | undefined, environment: string | undefined]>('tools'),
  members: kind<[project: string]>('members'),
  documents: kind<[project: string]>('documents'),
  revisions: kind<[project: string, path: string]>('revisions'),
  /** A revision's text, which never changes. */
  revisionText: kind<[project: string, path: string, revision: number | undefined]>('document'),
  /** A document's current revision, read fresh for a confirmation. */
  currentRevision: kind<[project: string, path: string]>('document-current'),
  /** The revision the editor opens with, read once per opening. */
  editorOpening: kind<[project: string, path: string]>('editor-opening'),
  live: kind<[project: string, environment: string, path: string]>('live'),
  deployments: kind<[project: string, environment: string, limit: number]>('deployments'),
  secrets: kind<[project: string, environment: string]>('secrets'),
  /** The audit as the page filters it (read_audit's input). */
  audit: kind<[project: string, filter: Record<string, unknown>]>('audit'),
  assistantStatus: kind('assistant-status'),
  agents: kind('agents'),
  threads: kind('threads'),
  usage: kind<[threadId: string | null]>('usage'),
  sessionCredentials: kind<[threadId: string]>('session-credentials'),
  changeRequests: kind<[show: Show, project: string | null, status: ChangeRequestStatus | null]>('change-requests'),
  changeRequest: kind<[id: string]>('change-request'),
  webhooks: kind<[project: string]>('webhooks'),
  webhookDeliveries: kind<[project: string]>('webhook-deliveries'),
};

/** Reads again every query under each of `keys`; settles once those shown are read. */
export async function readAgain(queries: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => queries.invalidateQueries({ queryKey })));
}
