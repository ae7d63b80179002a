// The page's project as it changes, on any server (the `project:<p>` topic of
// the browser's one stream): each notice reads again what it touched, so
// documents, deployments, secrets, members and the audit refresh by
// themselves — and an open editor learns of a revision saved elsewhere.
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ProjectChange } from '../../../src/wire/project-change';
import { followTopic } from './topics';
import { queryKeys, readAgain } from './queryKeys';

/** The queries (key prefixes) each kind of change in `project` makes stale; every change is audited too. */
function staleAfter(project: string): Record<ProjectChange['what'], QueryKey[]> {
  const audit = queryKeys.audit(project);
  return {
    // A waiting proposal's card reads its document's newest revision (stale, "deploy rN instead"): the threads too.
    documents: [queryKeys.documents(project), queryKeys.currentRevision(project), queryKeys.threads(), audit],
    // A deploy or rollback changes what is live, which the documents list carries too; a secret, the secrets.
    // A waiting proposal on what moved is stale now (src/assistant/proposal-staleness.ts): the threads too.
    environment: [queryKeys.deployments(project), queryKeys.live(project), queryKeys.secrets(project), queryKeys.documents(project), queryKeys.threads(), audit],
    // Members, roles (the project list carries each role) and environments.
    project: [queryKeys.project(project), queryKeys.projects(), queryKeys.members(project), queryKeys.tools(project), queryKeys.threads(), audit],
  };
}

/** Follows `project` while a page of it is shown (a new project, a new follow). */
export function useProjectChangeStream(project: string | undefined): void {
  const queries = useQueryClient();
  useEffect(() => {
    if (!project) return;
    const stop = new AbortController();
    const stale = staleAfter(project);
    const everything = Object.values(stale).flat();
    followTopic(
      `project:${project}`,
      {
        onEvent: ({ event, data }) => {
          if (event === 'resync') return void readAgain(queries, everything);
          if (event === 'change') void readAgain(queries, stale[(JSON.parse(data) as ProjectChange).what]);
        },
        // What changed while the stream was down is read again; the first open only races the page's own first reads.
        onOpen: (reopened) => {
          if (reopened) void readAgain(queries, everything);
        },
      },
      stop.signal,
    );
    return () => stop.abort();
  }, [project, queries]);
}
