import { z } from 'zod';
import { NoParams } from './app.js';

/** Projects (every person) and the Team screen (organization managers only). */

export const ProjectView = z.object({
  id: z.string(),
  name: z.string(),
  archived: z.boolean(),
});
export type ProjectView = z.infer<typeof ProjectView>;

const ProjectName = z.string().max(200);

export const ProjectList = z.object({
  projects: z.array(ProjectView),
  /** The project new drafts are filed under (the last one chosen), if still active. */
  lastProjectId: z.string().nullable(),
  /** The project of the draft named in the call (null: none, or no draft named). */
  draftProjectId: z.string().nullable(),
});
export type ProjectList = z.infer<typeof ProjectList>;

/** One group of the organization's tree, in tree order (a parent before its children). */
export const TeamGroup = z.object({
  groupId: z.string(),
  name: z.string(),
  depth: z.number().int(),
  directMemberCount: z.number().int(),
  branchMemberCount: z.number().int(),
});
export type TeamGroup = z.infer<typeof TeamGroup>;

/** A member as the directory gives it: no contact data, only this application's roles. */
export const TeamMember = z.object({
  membershipId: z.string(),
  accountId: z.string(),
  displayName: z.string(),
  groupPath: z.array(z.string()),
  organizationRoles: z.array(z.string()),
  appRoles: z.array(z.string()),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamMemberPage = z.object({
  items: z.array(TeamMember),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TeamMemberPage = z.infer<typeof TeamMemberPage>;

/** Decimal strings, `amountScale` decimals each; never added one into another. */
export const CreditAmounts = z.object({
  ledgerSettledCredits: z.string(),
  reservedCredits: z.string(),
  releasedCredits: z.string(),
  failedCredits: z.string(),
  pendingCredits: z.string(),
});
export type CreditAmounts = z.infer<typeof CreditAmounts>;

export const TeamUsageRow = z.object({
  projectId: z.string(),
  projectName: z.string().nullable(),
  accountId: z.string().nullable(),
  memberName: z.string().nullable(),
  serviceKind: z.string().nullable(),
  day: z.string().nullable(),
  credits: CreditAmounts,
  requestCount: z.number().int(),
});
export type TeamUsageRow = z.infer<typeof TeamUsageRow>;

export const TeamUsage = z.object({
  rows: z.array(TeamUsageRow),
  totals: CreditAmounts,
  requestCount: z.number().int(),
  amountScale: z.number().int(),
  asOf: z.string(),
  freshness: z.string(),
});
export type TeamUsage = z.infer<typeof TeamUsage>;

export const teamMethods = {
  'projects.list': {
    params: z.object({ includeArchived: z.boolean().optional(), draftId: z.string().optional() }).strict(),
    result: ProjectList,
  },
  'projects.create': { params: z.object({ name: ProjectName }).strict(), result: ProjectView },
  'projects.rename': {
    params: z.object({ id: z.string(), name: ProjectName }).strict(),
    result: ProjectView,
  },
  'projects.archive': { params: z.object({ id: z.string() }).strict(), result: ProjectView },
  /** Files a draft under a project (null: none); new drafts use it next. */
  'projects.fileDraft': {
    params: z.object({ draftId: z.string(), projectId: z.string().nullable() }).strict(),
    result: z.object({ draftId: z.string(), projectId: z.string().nullable() }),
  },
  /** Whether the person is an organization manager (the platform's directory decides). */
  'team.access': { params: NoParams, result: z.object({ manager: z.boolean() }) },
  'team.groups': { params: NoParams, result: z.object({ groups: z.array(TeamGroup) }) },
  'team.members': {
    params: z
      .object({
        groupId: z.string().max(200).optional(),
        includeDescendants: z.boolean().optional(),
        search: z.string().max(100).optional(),
        page: z.number().int().min(1).optional(),
      })
      .strict(),
    result: TeamMemberPage,
  },
  'team.usage': {
    params: z.object({ projectIds: z.array(z.string().min(1)).min(1).max(10_000).optional() }).strict(),
    result: TeamUsage,
  },
} as const;

export const teamEvents = {} as const;
