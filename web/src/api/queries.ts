// Server state the pages share; each key comes from queryKeys.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, runTool } from './client';
import { queryKeys } from './queryKeys';
import type { SessionCredentialListing } from '../../../src/conversation/credentials';
import type { DocumentListing, RevisionListing, RevisionView } from '../../../src/domain/documents';
import type { Member } from '../../../src/domain/project-access';
import type { SecretInfo } from '../../../src/domain/secrets';
import type { Agent } from '../../../src/wire/agent';
import type { AssistantStatus } from '../../../src/wire/assistant-status';
import type { Project } from '../../../src/wire/project';
import type { ToolDescriptor } from '../../../src/wire/tool-descriptor';

export function useProjects() {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: () => api<Project[]>('GET', '/api/v1/projects') });
}

/** A project as the operator sees it (role, environments); shared with the editor route's early start. */
export function projectQuery(slug: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.project(slug),
    queryFn: () => api<Project>('GET', `/api/v1/projects/${encodeURIComponent(slug ?? '')}`),
    enabled: slug !== undefined,
  });
}

export function useProject(slug: string | undefined) {
  return useQuery(projectQuery(slug));
}

export function useWhoami() {
  return useQuery({
    queryKey: queryKeys.whoami(),
    queryFn: () => runTool<{ operator: string }>('whoami', {}),
    staleTime: Infinity,
  });
}

export function useDocuments(project: string) {
  return useQuery({
    queryKey: queryKeys.documents(project),
    queryFn: () => runTool<{ documents: DocumentListing[] }>('list_documents', { project }).then((r) => r.documents),
  });
}

/** A document's revisions, newest first (the tool's maximum: older ones are rare to restore). */
export function useRevisions(project: string, path: string) {
  return useQuery({
    queryKey: queryKeys.revisions(project, path),
    queryFn: () =>
      runTool<{ current_revision: number; revisions: RevisionListing[] }>('list_revisions', { project, path, limit: 200 }),
  });
}

/** A revision's text; a revision never changes, so it is read once (the editor, the history and the confirmations share it). */
export function useRevisionText(project: string, path: string, revision: number | undefined) {
  return useQuery({
    queryKey: queryKeys.revisionText(project, path, revision),
    queryFn: () => runTool<RevisionView>('read_document', { project, path, revision }).then((r) => r.text),
    enabled: revision !== undefined,
    staleTime: Infinity,
  });
}

export function useMembers(project: string) {
  return useQuery({
    queryKey: queryKeys.members(project),
    queryFn: () => runTool<{ members: Member[] }>('list_members', { project }).then((r) => r.members),
  });
}

/** An environment's secrets by name and version (never a value). */
export function useSecrets(project: string, environment: string) {
  return useQuery({
    queryKey: queryKeys.secrets(project, environment),
    queryFn: () => runTool<{ secrets: SecretInfo[] }>('list_secrets', { project, environment }).then((r) => r.secrets),
  });
}

export function useAssistantStatus() {
  return useQuery({
    queryKey: queryKeys.assistantStatus(),
    queryFn: () => api<AssistantStatus>('GET', '/api/v1/assistant/status'),
    staleTime: 60_000,
  });
}

/** The ACP agents a new conversation may be held by. */
export function useAgents() {
  return useQuery({
    queryKey: queryKeys.agents(),
    queryFn: () => api<Agent[]>('GET', '/api/v1/assistant/agents'),
    staleTime: 60_000,
  });
}

/** The tools with `allowed` for this project and environment (advisory: the server decides). */
export function toolsQuery(project: string | undefined, environment: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.tools(project, environment),
    queryFn: () => {
      const query = new URLSearchParams();
      if (project) query.set('project', project);
      if (environment) query.set('environment', environment);
      return api<{ tools: ToolDescriptor[] }>('GET', `/api/v1/assistant/tools?${query}`).then((r) => r.tools);
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
    queryFn: () => api<SessionCredentialListing[]>('GET', `/api/v1/assistant/threads/${threadId}/session-credentials`),
    enabled,
  });
}
