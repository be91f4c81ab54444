import { PlatformError } from './errors.js';
import {
  appRolesOf,
  FIXTURE_GROUPS,
  FIXTURE_MEMBERS,
  type FixtureApp,
  type FixtureGroup,
  type FixtureMember,
} from './fixtures.js';

/** Default page of the members list when the request leaves it out (or sends 0). */
export const MEMBERS_DEFAULT_PAGE_SIZE = 50;

export interface DirectoryGroup {
  groupId: string;
  parentGroupId: string;
  name: string;
  groupPath: string[];
  depth: number;
  directMemberCount: number;
  branchMemberCount: number;
}

export interface DirectoryMember {
  membershipId: string;
  accountId: string;
  displayName: string;
  groupId: string;
  groupPath: string[];
  organizationRoles: string[];
  appRoles: string[];
  membershipVersion: number;
  appRoleVersion: number;
}

function groupById(groupId: string): FixtureGroup | undefined {
  return FIXTURE_GROUPS.find((g) => g.groupId === groupId);
}

/** Names from the root down to the group. */
function pathOf(group: FixtureGroup): string[] {
  const names: string[] = [];
  for (let g: FixtureGroup | undefined = group; g; g = groupById(g.parentGroupId)) names.unshift(g.name);
  return names;
}

/** The group and every group below it. */
function branchIds(groupId: string): Set<string> {
  const ids = new Set([groupId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const g of FIXTURE_GROUPS)
      if (ids.has(g.parentGroupId) && !ids.has(g.groupId)) {
        ids.add(g.groupId);
        grew = true;
      }
  }
  return ids;
}

/** The group tree, parents before children; `depth` 0 is the root. */
export function listGroups(): DirectoryGroup[] {
  return FIXTURE_GROUPS.map((group) => {
    const groupPath = pathOf(group);
    const branch = branchIds(group.groupId);
    return {
      groupId: group.groupId,
      parentGroupId: group.parentGroupId,
      name: group.name,
      groupPath,
      depth: groupPath.length - 1,
      directMemberCount: FIXTURE_MEMBERS.filter((m) => m.groupId === group.groupId).length,
      branchMemberCount: FIXTURE_MEMBERS.filter((m) => branch.has(m.groupId)).length,
    };
  });
}

/** A member as the directory shows it: no contact data, only this application's roles. */
function toDirectoryMember(app: FixtureApp, member: FixtureMember): DirectoryMember {
  const appRoles = appRolesOf(app, member.userId);
  return {
    membershipId: member.membershipId,
    accountId: member.accountId,
    displayName: member.displayName,
    groupId: member.groupId,
    groupPath: pathOf(groupById(member.groupId)!),
    organizationRoles: [...member.organizationRoles],
    appRoles,
    membershipVersion: 1,
    appRoleVersion: appRoles.length > 0 ? 2 : 1,
  };
}

export interface MembersQuery {
  groupId?: string;
  includeDescendants?: boolean;
  search?: string;
  page?: number;
  pageSize?: number;
}

/**
 * One page of members ordered by display name: of a group (with its descendants when asked),
 * filtered by a case-insensitive search of the display name. Page 0 or absent is page 1;
 * pageSize 0 or absent is 50.
 */
export function listMembers(
  app: FixtureApp,
  query: MembersQuery,
): { items: DirectoryMember[]; page: number; pageSize: number; total: number } {
  let members = [...FIXTURE_MEMBERS];
  if (query.groupId !== undefined) {
    if (!groupById(query.groupId))
      throw new PlatformError(
        404,
        'ORGANIZATION_GROUP_NOT_FOUND',
        'No group with this id in the organization.',
        {
          details: { field: 'groupId' },
        },
      );
    const ids = query.includeDescendants ? branchIds(query.groupId) : new Set([query.groupId]);
    members = members.filter((m) => ids.has(m.groupId));
  }
  const needle = query.search?.trim().toLocaleLowerCase();
  if (needle) members = members.filter((m) => m.displayName.toLocaleLowerCase().includes(needle));
  members.sort((a, b) => a.displayName.localeCompare(b.displayName, 'en'));
  const page = query.page || 1;
  const pageSize = query.pageSize || MEMBERS_DEFAULT_PAGE_SIZE;
  const items = members.slice((page - 1) * pageSize, page * pageSize).map((m) => toDirectoryMember(app, m));
  return { items, page, pageSize, total: members.length };
}
