// Whether the operator may run a tool here, and the refusal sentence when not
// (worded as the server words it). Advisory: the server decides again.
import { useProject, useTools } from '../api/queries';

const ENVIRONMENT_PERMISSIONS = new Set(['deploy', 'secret:write']);

export interface Permission {
  allowed: boolean;
  /** Why not, in the server's words; '' when allowed or still loading. */
  reason: string;
  /** Not known yet: the operator's tools here are still loading (`allowed` is false meanwhile). */
  pending?: boolean;
}

/** For the buttons anyone may press, kept focusable while they wait. */
export const ALLOWED: Permission = { allowed: true, reason: '' };

export function usePermission(project: string, environment: string | undefined, tool: string): Permission {
  const tools = useTools(project, environment);
  const role = useProject(project).data?.role;
  const descriptor = tools.data?.find((t) => t.name === tool);
  if (!descriptor) return { allowed: false, reason: '', pending: tools.data === undefined };
  if (descriptor.allowed) return { allowed: true, reason: '' };
  const permission = descriptor.permission ?? tool;
  const where = ENVIRONMENT_PERMISSIONS.has(permission) && environment ? `on ${environment} of ${project}` : `on ${project}`;
  return { allowed: false, reason: `you need ${permission} ${where}; your role there is ${role ?? 'unknown'}` };
}
