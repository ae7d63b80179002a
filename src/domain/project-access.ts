// A project as a caller sees it — its environments and what is live there,
// its members, with the caller's role — and the shapes of project and environment names:
// shared by the directory that holds projects in memory and the functions
// that read and change them.
import type { Role } from '../store/schema.js';
import type { Member } from '../wire/member.js';

export type { Member };

export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
export const ENVIRONMENT_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

export interface LiveEntry {
  path: string;
  revision: number;
  deployment: number;
  deployed_at: string;
}

export interface Environment {
  id: string;
  name: string;
  protected: boolean;
  /** How many distinct people's word a change here needs, the requester's ask the first (DESIGN.md §14); 1: it runs at once. */
  approvalsRequired: number;
  /** Whether the requester's own approval counts towards a change request here. */
  requesterMayApprove: boolean;
  /** What is live there, by path. */
  live: LiveEntry[];
}

export interface ProjectAccess {
  id: string;
  slug: string;
  name: string;
  /** The caller's effective role: owners act as admin everywhere. */
  role: Role;
  environments: Environment[];
  /** Every member with their role, by name. */
  members: readonly Member[];
}
