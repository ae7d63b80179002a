// The assistant's threads as server state: list, open, send a message,
// decide proposals. A turn is one synchronous POST today; `sendMessage` is
// the one place a streamed turn would plug in.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { Thread } from '../api/types';

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

export function openThread(project: string | undefined, environment: string | undefined, page: string): Promise<Thread> {
  return api<Thread>('POST', '/api/v1/assistant/threads', { project: project ?? null, environment: environment ?? null, page });
}

export function sendMessage(threadId: string, text: string): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/messages`, { text });
}

export function decide(threadId: string, proposalId: string, decision: 'accept' | 'reject'): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/proposals/${proposalId}/${decision}`);
}

export function acceptAll(threadId: string): Promise<Thread> {
  return api<Thread>('POST', `/api/v1/assistant/threads/${threadId}/proposals/accept-all`);
}
