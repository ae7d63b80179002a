// A member of a project, as `list_members` shows them.
import type { Role } from './role.js';

export interface Member {
  operator: string;
  role: Role;
}
