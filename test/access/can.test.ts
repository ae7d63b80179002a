// can() against DESIGN.md §2's table, transcribed here independently of the
// implementation: every role × permission × protected/unprotected environment.
import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS, refusal, type Permission } from '../../src/access/can.js';
import type { Role } from '../../src/store/schema.js';
import { ROLES } from '../../src/wire/role.js';

// yes / no / U (unprotected environments only), columns: viewer, developer, operator, admin.
const DESIGN_TABLE: Record<Permission, [string, string, string, string]> = {
  'project:read': ['yes', 'yes', 'yes', 'yes'],
  'document:write': ['no', 'yes', 'yes', 'yes'],
  deploy: ['no', 'U', 'yes', 'yes'],
  'secret:write': ['no', 'U', 'yes', 'yes'],
  'audit:read': ['no', 'no', 'yes', 'yes'],
  'environment:manage': ['no', 'no', 'no', 'yes'],
  'member:manage': ['no', 'no', 'no', 'yes'],
};

const cases = PERMISSIONS.flatMap((permission) =>
  ROLES.flatMap((role, column) =>
    [true, false].map((isProtected) => {
      const cell = DESIGN_TABLE[permission][column];
      const expected = cell === 'yes' || (cell === 'U' && !isProtected);
      return { permission, role, isProtected, expected };
    }),
  ),
);

describe('can', () => {
  it('covers every permission of the table and no other', () => {
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(DESIGN_TABLE).sort());
    expect(cases).toHaveLength(7 * 4 * 2);
  });

  it.each(cases)('$role $permission protected=$isProtected → $expected', ({ role, permission, isProtected, expected }) => {
    expect(can(role as Role, permission, { protected: isProtected })).toBe(expected);
  });

  it('grants an unprotected-only permission only when an unprotected environment is named', () => {
    expect(can('developer', 'deploy')).toBe(false);
    expect(can('developer', 'deploy', null)).toBe(false);
    expect(can('operator', 'deploy')).toBe(true);
  });

  it('names what was missing, where, and the role', () => {
    expect(refusal('developer', 'deploy', 'shop', { name: 'production' })).toBe(
      'you need deploy on production of shop; your role there is developer',
    );
    expect(refusal('viewer', 'member:manage', 'shop')).toBe('you need member:manage on shop; your role there is viewer');
  });
});
