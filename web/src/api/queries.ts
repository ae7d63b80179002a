// Server state the pages share, one query key per resource.
import { useQuery } from '@tanstack/react-query';
import { api, runTool } from './client';
import type { Agent, AssistantStatus, DocumentListing, Project, SessionCredentialListing, ToolDescriptor } from './types';

export function useProjects() {
  return useQuery({ queryKey: ['projects'], queryFn: () => api<Project[]>('GET', '/api/v1/projects') });
}

export function useProject(slug: string | undefined) {
  return useQuery({
    queryKey: ['project', slug],
    queryFn: () => api<Project>('GET', `/api/v1/projects/${encodeURIComponent(slug ?? '')}`),
    enabled: slug !== undefined,
  });
}

export function useWhoami() {
  return useQuery({
    queryKey: ['whoami'],
    queryFn: () => runTool<{ operator: string }>('whoami', {}),
    staleTime: Infinity,
  });
}

export function useDocuments(project: string) {
  return useQuery({
    queryKey: ['documents', project],
    queryFn: () => runTool<{ documents: DocumentListing[] }>('list_documents', { project }).then((r) => r.documents),
  });
}

export function useAssistantStatus() {
  return useQuery({
    queryKey: ['assistant-status'],
    queryFn: () => api<AssistantStatus>('GET', '/api/v1/assistant/status'),
    staleTime: 60_000,
  });
}

/** The ACP agents a new conversation may be held by. */
export function useAgents() {
  return useQuery({
    queryKey: ['agents'],
    queryFn: () => api<Agent[]>('GET', '/api/v1/assistant/agents'),
    staleTime: 60_000,
  });
}

/** The tools with `allowed` for this project and environment (advisory: the server decides). */
export function useTools(project: string | undefined, environment: string | undefined) {
  return useQuery({
    queryKey: ['tools', project, environment],
    queryFn: () => {
      const query = new URLSearchParams();
      if (project) query.set('project', project);
      if (environment) query.set('environment', environment);
      return api<{ tools: ToolDescriptor[] }>('GET', `/api/v1/assistant/tools?${query}`).then((r) => r.tools);
    },
    staleTime: 30_000,
  });
}

/** A conversation's live session credentials, while `enabled` (its "Connect an agent" dialog is open). */
export function useSessionCredentials(threadId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['session-credentials', threadId],
    queryFn: () => api<SessionCredentialListing[]>('GET', `/api/v1/assistant/threads/${threadId}/session-credentials`),
    enabled,
  });
}
