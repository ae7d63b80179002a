// The project and environment the page is about, read from the route: the
// editor's `?environment=`, an environment page's own, or the one the
// operator last picked in this project (staging-first by default).
import { useLocation, useSearch } from 'wouter';
import { useProject } from './api/queries';

export interface Scope {
  project: string | undefined;
  environment: string | undefined;
}

const PROJECT_PATH = /^\/projects\/([^/]+)(?:\/environments\/([^/]+))?/;

export function rememberEnvironment(project: string, environment: string): void {
  sessionStorage.setItem(`aion.environment.${project}`, environment);
}

export function useScope(): Scope {
  const [location] = useLocation();
  const search = useSearch();
  const match = PROJECT_PATH.exec(location);
  const project = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  const environments = useProject(project).data?.environments ?? [];
  const asked = (match?.[2] ? decodeURIComponent(match[2]) : null) ?? new URLSearchParams(search).get('environment');
  const remembered = project ? sessionStorage.getItem(`aion.environment.${project}`) : null;
  const known = (name: string | null) => (name && environments.some((e) => e.name === name) ? name : undefined);
  const environment =
    known(asked) ?? known(remembered) ?? environments.find((e) => !e.protected)?.name ?? environments[0]?.name;
  return { project, environment };
}
