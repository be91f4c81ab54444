import type { RoleDefinition } from '../api-clients/developer/developer-client.js';

/**
 * Section E's role rules, checked before anything is sent: `roleCode` cannot change (a role of the
 * platform's that is missing from the new array would be a rename or a removal — retire it with
 * `status: "retired"` instead); `definitionVersion` must increase for a changed role and may never
 * go down; the array is complete (every role, `PUT` replaces them all).
 */

export interface RoleProblem {
  field: string;
  message: string;
}

const ROLE_CODE = /^[a-z][a-z0-9_]{1,63}$/;
const FIELDS = ['roleCode', 'displayName', 'description', 'definitionVersion', 'status'] as const;

export function checkRoleUpdate(
  current: readonly RoleDefinition[],
  next: unknown,
): { roles: RoleDefinition[]; changed: string[]; problems: RoleProblem[] } {
  const problems: RoleProblem[] = [];
  if (!Array.isArray(next))
    return {
      roles: [],
      changed: [],
      problems: [{ field: '$', message: 'the file must hold the complete JSON array of role definitions' }],
    };
  const roles: RoleDefinition[] = [];
  next.forEach((raw: unknown, i) => {
    const at = `[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({ field: at, message: 'a role definition is an object' });
      return;
    }
    const r = raw as Record<string, unknown>;
    for (const key of Object.keys(r))
      if (!(FIELDS as readonly string[]).includes(key))
        problems.push({ field: `${at}.${key}`, message: 'not a field of a role definition' });
    if (typeof r.roleCode !== 'string' || !ROLE_CODE.test(r.roleCode))
      problems.push({ field: `${at}.roleCode`, message: 'lowercase letters, digits and underscores, 2..64' });
    if (typeof r.displayName !== 'string' || r.displayName.length < 1)
      problems.push({ field: `${at}.displayName`, message: 'required' });
    if (typeof r.description !== 'string') problems.push({ field: `${at}.description`, message: 'required' });
    if (
      typeof r.definitionVersion !== 'number' ||
      !Number.isInteger(r.definitionVersion) ||
      r.definitionVersion < 1
    )
      problems.push({ field: `${at}.definitionVersion`, message: 'a positive whole number' });
    if (r.status !== 'active' && r.status !== 'retired')
      problems.push({ field: `${at}.status`, message: 'active or retired' });
    roles.push(r as unknown as RoleDefinition);
  });
  const codes = roles.map((r) => r.roleCode);
  codes.forEach((code, i) => {
    if (codes.indexOf(code) !== i)
      problems.push({ field: `[${i}].roleCode`, message: `${code} appears twice` });
  });
  const changed: string[] = [];
  for (const old of current) {
    const i = roles.findIndex((r) => r.roleCode === old.roleCode);
    if (i < 0) {
      problems.push({
        field: 'roleCode',
        message: `${old.roleCode} is missing: a roleCode never changes or disappears; keep it, with "status": "retired" to retire it`,
      });
      continue;
    }
    const mine = roles[i]!;
    const differs = FIELDS.some((f) => f !== 'definitionVersion' && mine[f] !== old[f]);
    if (typeof mine.definitionVersion === 'number' && mine.definitionVersion < old.definitionVersion)
      problems.push({
        field: `[${i}].definitionVersion`,
        message: `${old.roleCode}: ${mine.definitionVersion} is lower than the platform's ${old.definitionVersion}; it only increases`,
      });
    else if (differs && !(mine.definitionVersion > old.definitionVersion))
      problems.push({
        field: `[${i}].definitionVersion`,
        message: `${old.roleCode} changed, so its definitionVersion must be higher than the platform's ${old.definitionVersion}`,
      });
    if (differs || mine.definitionVersion !== old.definitionVersion) changed.push(old.roleCode);
  }
  for (const r of roles) if (!current.some((c) => c.roleCode === r.roleCode)) changed.push(r.roleCode);
  return { roles, changed, problems };
}

/**
 * The complete role array that puts the declared roles on the platform without breaking a rule: a
 * declared role the platform lacks is added; one that differs from the platform's (name,
 * description, status) gets a `definitionVersion` above the platform's; one that is the same keeps
 * the platform's version; a role of the platform's that is not declared stays as it is (a roleCode
 * never disappears). `changed` is empty when the platform already holds the declared roles.
 */
export function declaredRolesUpdate(
  current: readonly RoleDefinition[],
  declared: readonly RoleDefinition[],
): { roles: RoleDefinition[]; changed: string[] } {
  const changed: string[] = [];
  const roles: RoleDefinition[] = current.map((r) => ({ ...r }));
  for (const wanted of declared) {
    const i = roles.findIndex((r) => r.roleCode === wanted.roleCode);
    if (i < 0) {
      roles.push({ ...wanted });
      changed.push(wanted.roleCode);
      continue;
    }
    const old = roles[i]!;
    const differs = FIELDS.some((f) => f !== 'definitionVersion' && wanted[f] !== old[f]);
    if (!differs) continue;
    roles[i] = {
      ...wanted,
      definitionVersion: Math.max(old.definitionVersion + 1, wanted.definitionVersion),
    };
    changed.push(wanted.roleCode);
  }
  return { roles, changed };
}
