// Who may do what: DESIGN.md §2's table, as data, and one pure function over it.
import type { Role } from '../store/schema.js';

export const PERMISSIONS = [
  'project:read',
  'document:write',
  'deploy',
  'secret:write',
  'audit:read',
  'environment:manage',
  'member:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** `yes`: allowed; `unprotected`: allowed only on an unprotected environment; `no`: never. */
type Grant = 'yes' | 'unprotected' | 'no';

const TABLE: Record<Permission, Record<Role, Grant>> = {
  'project:read': { viewer: 'yes', developer: 'yes', operator: 'yes', admin: 'yes' },
  'document:write': { viewer: 'no', developer: 'yes', operator: 'yes', admin: 'yes' },
  deploy: { viewer: 'no', developer: 'unprotected', operator: 'yes', admin: 'yes' },
  'secret:write': { viewer: 'no', developer: 'unprotected', operator: 'yes', admin: 'yes' },
  'audit:read': { viewer: 'no', developer: 'no', operator: 'yes', admin: 'yes' },
  'environment:manage': { viewer: 'no', developer: 'no', operator: 'no', admin: 'yes' },
  'member:manage': { viewer: 'no', developer: 'no', operator: 'no', admin: 'yes' },
};

/** What each permission lets one do, in plain words, for sentences people read ("who may change secrets there"). */
export const PERMISSION_WORDS: Record<Permission, string> = {
  'project:read': 'read the project',
  'document:write': 'save documents',
  deploy: 'deploy',
  'secret:write': 'change secrets',
  'audit:read': 'read the audit',
  'environment:manage': 'manage environments',
  'member:manage': 'manage members',
};

/** A permission's plain words; a name no longer known (an old change request's) as it is. */
export function inWords(permission: string): string {
  return PERMISSIONS.find((p) => p === permission) ? PERMISSION_WORDS[permission as Permission] : permission;
}

/** Permissions that apply to an environment; the others apply to the project. */
export const ENVIRONMENT_PERMISSIONS: ReadonlySet<Permission> = new Set(['deploy', 'secret:write']);

/**
 * Whether `role` holds `permission`. Owners act as `admin` (see effectiveRole).
 * For an environment permission, `environment` says whether the target is
 * protected; without one, only an unconditional grant counts.
 */
export function can(role: Role, permission: Permission, environment?: { protected: boolean } | null): boolean {
  const grant = TABLE[permission][role];
  if (grant === 'unprotected') return environment != null && !environment.protected;
  return grant === 'yes';
}

/** The sentence a refusal carries: what was missing, where, and the caller's role. */
export function refusal(
  role: Role,
  permission: Permission,
  project: string,
  environment?: { name: string } | null,
): string {
  const where =
    ENVIRONMENT_PERMISSIONS.has(permission) && environment ? `on ${environment.name} of ${project}` : `on ${project}`;
  return `you need ${permission} ${where}; your role there is ${role}`;
}
