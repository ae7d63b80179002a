// The assistant's threads as server state: list, open (with the built-in
// assistant or an agent), send a message, cancel its turn, decide proposals,
// and the thread's token usage. A turn is one POST that answers when it ends;
// liveTurn.ts follows it meanwhile.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { Thread, Usage } from '../api/types';

const THREADS = ['threads'];

export function useThreads() {
  return useQuery({ queryKey: THREADS, queryFn: () => api<Thread[]>('GET', '/api/v1/assistant/threads') });
}

/** Keeps the cached list in step with a thread the server just answered with. */
export function useThreadUpdate() {
  const queries = useQueryClient();
  return (thread: Thread) => {
    queries.setQueryData<Thread[]>(THREADS, (threads = []) => [thread, ...threads.filter((t) => t.id !== thread.id)]);
    if (thread.proposals.some((p) => p.status !== 'pending')) {
      // An accepted proposal changed documents, deployments, secrets or members.
      for (const key of ['documents', 'document', 'deployments', 'secrets', 'members', 'project', 'projects', 'audit']) {
        void queries.invalidateQueries({ queryKey: [key] });
      }
    }
  };
}

/** `agent` null: the built-in assistant holds the thread. */
export function openThread(project: string | undefined, environment: string | undefined, page: string, agent: string | null): Promise<Thread> {
  return api<Thread>('POST', '/api/v1/assistant/threads', {
    project: project ?? null,
    environment: environment ?? null,
    page,
    ...(agent ? { agent } : {}),
  });
}

export function sendMessage(threadId: string, text: string): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/messages`, { text });
}

export function cancelTurn(threadId: string): Promise<{ cancelled: boolean }> {
  return api<{ cancelled: boolean }>('POST', `/api/v1/assistant/threads/${threadId}/cancel`);
}

export function useUsage(threadId: string | null) {
  return useQuery({
    queryKey: ['usage', threadId],
    queryFn: () => api<Usage>('GET', `/api/v1/assistant/threads/${threadId}/usage`),
    enabled: threadId !== null,
  });
}

export function decide(threadId: string, proposalId: string, decision: 'accept' | 'reject'): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/proposals/${proposalId}/${decision}`);
}

export function acceptAll(threadId: string): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/proposals/accept-all`);
}
