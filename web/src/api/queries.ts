// Server state the pages share; each key comes from queryKeys.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, runTool } from './client';
import { queryKeys } from './queryKeys';
import type { SessionCredentialListing } from '../../../src/wire/session-credential';
import type { Agent } from '../../../src/wire/agent';
import type { AssistantStatus } from '../../../src/wire/assistant-status';
import type { Project } from '../../../src/wire/project';
import type { ToolDescriptor } from '../../../src/wire/tool-descriptor';

export function useProjects() {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: ({ signal }) => api<Project[]>('GET', '/api/v1/projects', undefined, signal) });
}

/** A project as the operator sees it (role, environments); shared with the editor route's early start. */
export function projectQuery(slug: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.project(slug),
    queryFn: ({ signal }) => api<Project>('GET', `/api/v1/projects/${encodeURIComponent(slug ?? '')}`, undefined, signal),
    enabled: slug !== undefined,
  });
}

export function useProject(slug: string | undefined) {
  return useQuery(projectQuery(slug));
}

export function useWhoami() {
  return useQuery({
    queryKey: queryKeys.whoami(),
    queryFn: ({ signal }) => runTool('whoami', {}, signal),
    staleTime: Infinity,
  });
}

export function useDocuments(project: string) {
  return useQuery({
    queryKey: queryKeys.documents(project),
    queryFn: ({ signal }) => runTool('list_documents', { project }, signal).then((r) => r.documents),
  });
}

/** A document's revisions, newest first (the tool's maximum: older ones are rare to restore). */
export function useRevisions(project: string, path: string) {
  return useQuery({
    queryKey: queryKeys.revisions(project, path),
    queryFn: ({ signal }) =>
      runTool('list_revisions', { project, path, limit: 200 }, signal),
  });
}

/** A revision's text; a revision never changes, so it is read once (the editor, the history and the confirmations share it). */
export function useRevisionText(project: string, path: string, revision: number | undefined) {
  return useQuery({
    queryKey: queryKeys.revisionText(project, path, revision),
    queryFn: ({ signal }) => runTool('read_document', { project, path, revision }, signal).then((r) => r.text),
    enabled: revision !== undefined,
    staleTime: Infinity,
  });
}

export function useMembers(project: string) {
  return useQuery({
    queryKey: queryKeys.members(project),
    queryFn: ({ signal }) => runTool('list_members', { project }, signal).then((r) => r.members),
  });
}

/** An environment's secrets by name and version (never a value). */
export function useSecrets(project: string, environment: string) {
  return useQuery({
    queryKey: queryKeys.secrets(project, environment),
    queryFn: ({ signal }) => runTool('list_secrets', { project, environment }, signal).then((r) => r.secrets),
  });
}

export function useAssistantStatus() {
  return useQuery({
    queryKey: queryKeys.assistantStatus(),
    queryFn: ({ signal }) => api<AssistantStatus>('GET', '/api/v1/assistant/status', undefined, signal),
    staleTime: 60_000,
  });
}

/** The ACP agents a new conversation may be held by. */
export function useAgents() {
  return useQuery({
    queryKey: queryKeys.agents(),
    queryFn: ({ signal }) => api<Agent[]>('GET', '/api/v1/assistant/agents', undefined, signal),
    staleTime: 60_000,
  });
}

/** The tools with `allowed` for this project and environment (advisory: the server decides). */
export function toolsQuery(project: string | undefined, environment: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.tools(project, environment),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams();
      if (project) query.set('project', project);
      if (environment) query.set('environment', environment);
      return api<{ tools: ToolDescriptor[] }>('GET', `/api/v1/assistant/tools?${query}`, undefined, signal).then((r) => r.tools);
    },
    staleTime: 30_000,
  });
}

export function useTools(project: string | undefined, environment: string | undefined) {
  return useQuery(toolsQuery(project, environment));
}

/** A conversation's live session credentials, while `enabled` (its "Connect an agent" dialog is open). */
export function useSessionCredentials(threadId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.sessionCredentials(threadId),
    queryFn: ({ signal }) => api<SessionCredentialListing[]>('GET', `/api/v1/assistant/threads/${threadId}/session-credentials`, undefined, signal),
    enabled,
  });
}
