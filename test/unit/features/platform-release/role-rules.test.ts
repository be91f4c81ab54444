import { describe, expect, it } from 'vitest';
import { checkRoleUpdate } from '../../../../src/main/core/features/platform-release/role-rules.js';

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
