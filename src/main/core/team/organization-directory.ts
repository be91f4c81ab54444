import { z } from 'zod';
import { AppError } from '../errors.js';
import { checkedAnswer } from './checked-answer.js';

/** Page size asked of `members:list` (the spec recommends `page: 1, pageSize: 50`). */
export const MEMBERS_PAGE_SIZE = 50;
export const MEMBER_SEARCH_MAX = 100;

/** The body of one `members:list` call. */
export interface MembersQuery {
  readonly groupId?: string;
  readonly includeDescendants?: boolean;
  readonly search?: string;
  readonly page: number;
  readonly pageSize: number;
}

/** What the screen asks for: a group (with its descendants or not), a search, a page (1-based). */
export interface MembersRequest {
  readonly groupId?: string;
  readonly includeDescendants?: boolean;
  readonly search?: string;
  readonly page?: number;
}

/** The `members:list` body for a request of the screen; bad input is a clear error, nothing is sent. */
export function membersQuery(request: MembersRequest = {}): MembersQuery {
  const search = request.search?.trim() ?? '';
  if (search.length > MEMBER_SEARCH_MAX)
    throw new AppError('team.invalid_query', `A member search is at most ${MEMBER_SEARCH_MAX} characters.`);
  const page = request.page ?? 1;
  if (!Number.isSafeInteger(page) || page < 1)
    throw new AppError('team.invalid_query', 'A members page is a whole number from 1.');
  const groupId = request.groupId?.trim();
  return {
    ...(groupId ? { groupId, includeDescendants: request.includeDescendants ?? true } : {}),
    ...(search ? { search } : {}),
    page,
    pageSize: MEMBERS_PAGE_SIZE,
  };
}

// Only the fields the Team screen shows are kept (zod drops the rest): a field the service might
// add one day, contact data above all, never reaches the page.
const Group = z.object({
  groupId: z.string().min(1),
  parentGroupId: z.string().nullish(),
  name: z.string(),
  groupPath: z.array(z.string()),
  depth: z.number().int().nonnegative(),
  directMemberCount: z.number().int().nonnegative(),
  branchMemberCount: z.number().int().nonnegative(),
});
const GroupList = z.object({ items: z.array(Group) });
const Member = z.object({
  membershipId: z.string().min(1),
  accountId: z.string().min(1),
  displayName: z.string(),
  groupId: z.string(),
  groupPath: z.array(z.string()),
  organizationRoles: z.array(z.string()),
  appRoles: z.array(z.string()),
});
const MemberPage = z.object({
  items: z.array(Member),
  page: z.number().int().nonnegative(),
  pageSize: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});

export type DirectoryMember = z.infer<typeof Member>;
export type MemberPageView = z.infer<typeof MemberPage>;

/** A group of the tree with its sub-groups, in the service's order. */
export interface GroupNode {
  readonly groupId: string;
  readonly name: string;
  readonly groupPath: string[];
  readonly depth: number;
  readonly directMemberCount: number;
  readonly branchMemberCount: number;
  readonly children: GroupNode[];
}

/** `groups:list` → the group tree (roots: no parent, or a parent not in the list). */
export function groupTree(body: unknown): GroupNode[] {
  const { items } = checkedAnswer(GroupList, body, 'organization group list');
  const nodes = new Map<string, GroupNode>();
  for (const g of items)
    nodes.set(g.groupId, {
      groupId: g.groupId,
      name: g.name,
      groupPath: g.groupPath,
      depth: g.depth,
      directMemberCount: g.directMemberCount,
      branchMemberCount: g.branchMemberCount,
      children: [],
    });
  const roots: GroupNode[] = [];
  for (const g of items) {
    const parent = g.parentGroupId ? nodes.get(g.parentGroupId) : undefined;
    (parent ? parent.children : roots).push(nodes.get(g.groupId)!);
  }
  return roots;
}

/** `members:list` → a page of members with only the fields shown. */
export function memberPage(body: unknown): MemberPageView {
  return checkedAnswer(MemberPage, body, 'organization member page');
}
