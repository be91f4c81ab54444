import { describe, expect, it } from 'vitest';
import { FRAMEWRIGHT_ROLES } from '../../../../src/main/core/platform-release/framewright-submission.js';
import {
  checkRoleUpdate,
  declaredRolesUpdate,
} from '../../../../src/main/core/platform-release/role-rules.js';

const current = [
  {
    roleCode: 'studio_admin',
    displayName: 'Admin',
    description: 'A',
    definitionVersion: 2,
    status: 'active',
  },
  {
    roleCode: 'studio_viewer',
    displayName: 'Viewer',
    description: 'V',
    definitionVersion: 1,
    status: 'active',
  },
];

describe('role rules', () => {
  it('accepts a retired role and a changed one with a higher definitionVersion, and a new role', () => {
    const next = [
      { ...current[0]!, description: 'B', definitionVersion: 3 },
      { ...current[1]!, status: 'retired', definitionVersion: 2 },
      {
        roleCode: 'studio_editor',
        displayName: 'Editor',
        description: 'E',
        definitionVersion: 1,
        status: 'active',
      },
    ];
    expect(checkRoleUpdate(current, next)).toMatchObject({
      problems: [],
      changed: ['studio_admin', 'studio_viewer', 'studio_editor'],
    });
  });

  it('refuses a vanished roleCode, an unchanged or lower definitionVersion and a non-array', () => {
    const renamed = checkRoleUpdate(current, [current[0], { ...current[1], roleCode: 'studio_reader' }]);
    expect(renamed.problems.map((p) => p.message).join()).toMatch(/studio_viewer is missing/);
    const notRaised = checkRoleUpdate(current, [{ ...current[0], displayName: 'X' }, current[1]]);
    expect(notRaised.problems).toEqual([
      {
        field: '[0].definitionVersion',
        message: expect.stringMatching(/must be higher than the platform's 2/),
      },
    ]);
    const lower = checkRoleUpdate(current, [{ ...current[0], definitionVersion: 1 }, current[1]]);
    expect(lower.problems[0]!.message).toMatch(/lower than the platform's 2/);
    expect(checkRoleUpdate(current, { roles: [] }).problems[0]!.field).toBe('$');
    expect(checkRoleUpdate(current, current)).toEqual({ roles: current, changed: [], problems: [] });
  });
});

describe('the declared roles, put on the platform by a release', () => {
  it('adds the missing ones, raises the version of a changed one, keeps the rest, and keeps every rule', () => {
    const { roles, changed } = declaredRolesUpdate(current, FRAMEWRIGHT_ROLES);
    // admin differs (name, description): above the platform's 2; viewer differs: above 1; editor is new
    expect(changed.sort()).toEqual(['studio_admin', 'studio_editor', 'studio_viewer']);
    expect(roles.find((r) => r.roleCode === 'studio_admin')!.definitionVersion).toBe(3);
    expect(roles.find((r) => r.roleCode === 'studio_viewer')!.definitionVersion).toBe(2);
    expect(roles.map((r) => r.roleCode).sort()).toEqual(['studio_admin', 'studio_editor', 'studio_viewer']);
    // what it sends passes the same rules `platform roles --set` checks
    expect(checkRoleUpdate(current, roles).problems).toEqual([]);
  });

  it('sends nothing when the platform holds the declared roles; keeps a role it does not declare', () => {
    const extra = {
      roleCode: 'legacy_role',
      displayName: 'L',
      description: 'l',
      definitionVersion: 4,
      status: 'retired',
    };
    const platform = [...FRAMEWRIGHT_ROLES.map((r) => ({ ...r })), extra];
    const update = declaredRolesUpdate(platform, FRAMEWRIGHT_ROLES);
    expect(update.changed).toEqual([]);
    expect(update.roles).toEqual(platform);
  });
});
