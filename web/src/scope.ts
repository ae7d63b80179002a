// The project and environment the page is about, read from the route: the
// editor's `?environment=`, an environment page's own, or the one the
// operator last picked in this project (staging-first by default).
import { useLocation, useSearch } from 'wouter';
import { useProject } from './api/queries';

export interface Scope {
  project: string | undefined;
  environment: string | undefined;
  /** False while a named project's environments are still being read: `environment` is not known yet. */
  settled: boolean;
}

const PROJECT_PATH = /^\/projects\/([^/]+)(?:\/environments\/([^/]+))?/;

const rememberedKey = (project: string) => `aion.environment.${project}`;

export function rememberEnvironment(project: string, environment: string): void {
  sessionStorage.setItem(rememberedKey(project), environment);
}

/** The environment the operator last picked in this project, in this tab. */
export function rememberedEnvironment(project: string): string | null {
  return sessionStorage.getItem(rememberedKey(project));
}

/**
 * The page that shows `environment` of `project`: this page when it is one of
 * that project's (an environment page becomes that environment's), else the
 * project's overview.
 */
export function environmentHref(location: string, project: string, environment: string): string {
  const base = `/projects/${encodeURIComponent(project)}`;
  const named = encodeURIComponent(environment);
  if (location.startsWith(`${base}/environments/`)) return `${base}/environments/${named}`;
  if (location === base || location.startsWith(`${base}/`)) return `${location}?environment=${named}`;
  return `${base}?environment=${named}`;
}

export function useScope(): Scope {
  const [location] = useLocation();
  const search = useSearch();
  const match = PROJECT_PATH.exec(location);
  const project = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  const read = useProject(project);
  const environments = read.data?.environments ?? [];
  const asked = (match?.[2] ? decodeURIComponent(match[2]) : null) ?? new URLSearchParams(search).get('environment');
  const remembered = project ? rememberedEnvironment(project) : null;
  const known = (name: string | null) => (name && environments.some((e) => e.name === name) ? name : undefined);
  const environment =
    known(asked) ?? known(remembered) ?? environments.find((e) => !e.protected)?.name ?? environments[0]?.name;
  return { project, environment, settled: project === undefined || read.data !== undefined || read.isError };
}
