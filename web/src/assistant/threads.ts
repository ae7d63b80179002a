// The assistant's threads as server state: list, open (with the built-in
// assistant or an agent), rename, delete, send a message, cancel its turn, decide proposals,
// the thread's token usage, and reading them again when they changed. A turn
// is one POST that answers when it ends; liveTurn.ts follows it meanwhile.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys, readAgain } from '../api/queryKeys';
import type { Usage } from '../../../src/wire/usage';
import type { ThreadResponse } from '../../../src/wire/thread';
import type { ProposalResponse } from '../../../src/wire/proposal';

/** What an accepted proposal may have changed: documents, deployments, secrets or members. */
const CHANGED_BY_PROPOSALS = [
  queryKeys.documents(),
  queryKeys.revisionText(),
  queryKeys.deployments(),
  queryKeys.secrets(),
  queryKeys.members(),
  queryKeys.project(),
  queryKeys.projects(),
  queryKeys.audit(),
];

export function useThreads() {
  return useQuery({ queryKey: queryKeys.threads(), queryFn: ({ signal }) => api<ThreadResponse[]>('GET', '/api/v1/assistant/threads', undefined, signal) });
}

/** Keeps the cached list in step with a thread the server just answered with. */
export function useThreadUpdate() {
  const queries = useQueryClient();
  return (thread: ThreadResponse) => {
    queries.setQueryData<ThreadResponse[]>(queryKeys.threads(), (threads = []) => {
      // As the server lists them: a thread that changed (a message) comes first; a rename or a decision leaves it in its place.
      const stays = threads.some((t) => t.id === thread.id && t.updated_at === thread.updated_at);
      return stays ? threads.map((t) => (t.id === thread.id ? thread : t)) : [thread, ...threads.filter((t) => t.id !== thread.id)];
    });
    if (thread.proposals.some((p) => p.status !== 'pending')) refreshWhatProposalsChange(queries);
  };
}

/** Reads a changed thread again: the list (which carries every thread whole) and its usage; settles once read. */
export function refreshThread(queries: QueryClient, threadId: string): Promise<void> {
  return readAgain(queries, [queryKeys.threads(), queryKeys.usage(threadId)]);
}

export function refreshWhatProposalsChange(queries: QueryClient): void {
  void readAgain(queries, CHANGED_BY_PROPOSALS);
}

/** Drops a thread deleted elsewhere from what this tab holds, without asking for it again. */
export function forgetThread(queries: QueryClient, threadId: string): void {
  queries.setQueryData<ThreadResponse[]>(queryKeys.threads(), (threads) => threads?.filter((t) => t.id !== threadId));
  queries.removeQueries({ queryKey: queryKeys.usage(threadId) });
}

/** Reads every assistant query again, when changes may have been missed. */
export function refreshAllThreads(queries: QueryClient): void {
  void readAgain(queries, [queryKeys.threads(), queryKeys.usage(), queryKeys.sessionCredentials()]);
}

/** The newest stored message of a thread as this tab has it (0: none). */
export function newestMessageId(queries: QueryClient, threadId: string): number {
  return queries.getQueryData<ThreadResponse[]>(queryKeys.threads())?.find((t) => t.id === threadId)?.messages.at(-1)?.id ?? 0;
}

/** `agent` null: the built-in assistant holds the thread. */
export function openThread(project: string | undefined, environment: string | undefined, page: string, agent: string | null): Promise<ThreadResponse> {
  return api<ThreadResponse>('POST', '/api/v1/assistant/threads', {
    project: project ?? null,
    environment: environment ?? null,
    page,
    ...(agent ? { agent } : {}),
  });
}

export function sendMessage(threadId: string, text: string): Promise<ThreadResponse> {
  return api<ThreadResponse>('POST', `/api/v1/assistant/threads/${threadId}/messages`, { text });
}

export function cancelTurn(threadId: string): Promise<{ cancelled: boolean }> {
  return api<{ cancelled: boolean }>('POST', `/api/v1/assistant/threads/${threadId}/cancel`);
}

export function useUsage(threadId: string | null) {
  return useQuery({
    queryKey: queryKeys.usage(threadId),
    queryFn: ({ signal }) => api<Usage>('GET', `/api/v1/assistant/threads/${threadId}/usage`, undefined, signal),
    enabled: threadId !== null,
  });
}

/** Accepts the proposal as shown (its fingerprint, DESIGN.md §14), or rejects it. */
export function decide(threadId: string, proposal: ProposalResponse, decision: 'accept' | 'reject'): Promise<ThreadResponse> {
  const seen = decision === 'accept' ? { fingerprint: proposal.fingerprint } : undefined;
  return api<ThreadResponse>('POST', `/api/v1/assistant/threads/${threadId}/proposals/${proposal.id}/${decision}`, seen);
}

/** Accepts the waiting proposals the operator saw, naming them: anything else waiting refuses it (409). */
export function acceptAll(threadId: string, seen: readonly string[]): Promise<ThreadResponse> {
  return api<ThreadResponse>('POST', `/api/v1/assistant/threads/${threadId}/proposals/accept-all`, { proposals: seen });
}

/** Renames a thread (PATCH, beyond the spec: see docs/decisions.md). */
export function renameThread(threadId: string, title: string): Promise<ThreadResponse> {
  return api<ThreadResponse>('PATCH', `/api/v1/assistant/threads/${threadId}`, { title });
}

export function deleteThread(threadId: string): Promise<null> {
  return api<null>('DELETE', `/api/v1/assistant/threads/${threadId}`);
}
