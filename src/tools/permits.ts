// Who may run a tool where: the permission a tool names, checked with can()
// in the environment named (or, with none named, in any of the project's).
import { can, ENVIRONMENT_PERMISSIONS } from '../access/can.js';
import type { Environment, ProjectAccess } from '../domain/projects.js';
import type { Tool } from './types.js';

/** Whether the project role allows the tool in `environment`; with none named, whether it allows it in one of them. */
export function permits(tool: Tool, project: ProjectAccess, environment: Environment | null): boolean {
  if (tool.permission === null) return true;
  if (!ENVIRONMENT_PERMISSIONS.has(tool.permission) || environment) return can(project.role, tool.permission, environment);
  // No environment named: allowed if it is allowed in one of them.
  return project.environments.some((e) => can(project.role, tool.permission ?? 'project:read', e));
}

/** Whether the tool could run in this project, and in the environment named (an unknown one allows no tool that takes one). */
export function allowedIn(tool: Tool, project: ProjectAccess, environmentName: string | null | undefined): boolean {
  if (!environmentName) return permits(tool, project, null);
  const environment = project.environments.find((e) => e.name === environmentName) ?? null;
  if (!environment && tool.scope !== 'project') return false;
  return permits(tool, project, environment);
}

/**
 * Whether the caller's role in the project could ever decide a change request
 * there: a request is a change to an environment, so its deciders hold deploy
 * or secret:write on one of them (a viewer never does).
 */
export function mayDecideIn(project: ProjectAccess): boolean {
  return project.environments.some((environment) => [...ENVIRONMENT_PERMISSIONS].some((permission) => can(project.role, permission, environment)));
}

/** Whether running the tool changes anything: the store (a write) or the operator's editor (the shared buffer). */
export function changesSomething(tool: Tool): boolean {
  return tool.tag === 'write' || tool.editsSharedBuffer;
}
