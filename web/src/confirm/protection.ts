// Which changes need the environment's name typed: a tool that changes an
// environment, in one the project marks protected (GET /projects/{slug}).
// While the project is not read yet, an environment counts as protected.
import { useQueries } from '@tanstack/react-query';
import { projectQuery } from '../api/queries';
import type { ProposalResponse } from '../../../src/wire/proposal';

/** The tools that change an environment itself (the others act on the project's documents or members). */
export const ENVIRONMENT_CHANGES = new Set(['deploy', 'rollback', 'set_secret', 'delete_secret', 'set_environment_protection']);

/** Whether an environment of one of these projects is protected (true while unknown). */
export function useProtection(projects: string[]): (project: string, environment: string) => boolean {
  const slugs = [...new Set(projects.filter((p) => p !== ''))];
  // The same query as useProject, so the cache is shared.
  const answers = useQueries({ queries: slugs.map(projectQuery) });
  return (project, environment) => {
    const data = answers[slugs.indexOf(project)]?.data;
    return data?.environments.find((e) => e.name === environment)?.protected ?? true;
  };
}

/** Whether accepting this proposal changes a protected environment. */
export function changesProtected(proposal: ProposalResponse, isProtected: (project: string, environment: string) => boolean, fallbackProject = ''): boolean {
  return ENVIRONMENT_CHANGES.has(proposal.tool) && isProtected(proposal.project ?? fallbackProject, proposal.environment);
}
