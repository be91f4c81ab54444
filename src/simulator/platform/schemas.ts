import { z } from 'zod';

/**
 * Request and response shapes of the platform surfaces (application-platform-api.md), as zod
 * schemas: the routes parse with them and the platform OpenAPI document is generated from them.
 * They live in the simulator because they describe what the simulator serves; a client keeps
 * its own reading of the spec.
 */

const FreeForm = z.record(z.string(), z.unknown());

export const PlatformErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    requestId: z.string(),
    traceId: z.string(),
    retryable: z.boolean(),
    phase: z.string().optional(),
    details: FreeForm.optional(),
  })
  .strict();

export const SubjectSchema = z
  .object({
    tenantId: z.string(),
    accountId: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    organizationId: z.string().optional(),
    membershipId: z.string().optional(),
  })
  .strict();

export const RuntimeSessionSchema = z
  .object({
    sessionId: z.string(),
    appKey: z.string(),
    appVersionId: z.string(),
    subject: SubjectSchema,
    appRoles: z.array(z.string()),
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const ExchangeBody = z.object({ launchCode: z.string().min(1) }).strict();

export const EmptyBody = z.object({}).strict();

export const MembersListBody = z
  .object({
    groupId: z.string().min(1).optional(),
    includeDescendants: z.boolean().optional(),
    search: z.string().max(200).optional(),
    page: z.number().int().nonnegative().optional(),
    pageSize: z.number().int().nonnegative().max(100).optional(),
  })
  .strict();

export const DirectoryGroupSchema = z
  .object({
    groupId: z.string(),
    parentGroupId: z.string(),
    name: z.string(),
    groupPath: z.array(z.string()),
    depth: z.number().int().nonnegative(),
    directMemberCount: z.number().int().nonnegative(),
    branchMemberCount: z.number().int().nonnegative(),
  })
  .strict();

export const DirectoryGroupList = z
  .object({ appKey: z.string(), organizationId: z.string(), items: z.array(DirectoryGroupSchema) })
  .strict();

export const DirectoryMemberSchema = z
  .object({
    membershipId: z.string(),
    accountId: z.string(),
    displayName: z.string(),
    groupId: z.string(),
    groupPath: z.array(z.string()),
    organizationRoles: z.array(z.string()),
    appRoles: z.array(z.string()),
    membershipVersion: z.number().int().positive(),
    appRoleVersion: z.number().int().positive(),
  })
  .strict();

export const DirectoryMemberPage = z
  .object({
    appKey: z.string(),
    organizationId: z.string(),
    items: z.array(DirectoryMemberSchema),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    total: z.number().int().nonnegative(),
  })
  .strict();

/** Simulator-only: what the application center does when a person opens an application. */
export const LaunchBody = z.object({ appKey: z.string().min(1), user: z.string().min(1) }).strict();

export const LaunchInformation = z
  .object({
    runtime: z
      .object({
        launchCode: z.string(),
        appKey: z.string(),
        appVersionId: z.string(),
        expiresAt: z.iso.datetime(),
      })
      .strict(),
  })
  .strict();

/** Simulator-only: an administrator's change of a person's access to an application. */
export const AccessBody = z
  .object({
    appKey: z.string().min(1),
    user: z.string().min(1),
    access: z.enum(['granted', 'revoked', 'renewal_blocked']),
  })
  .strict();

/** Every named schema of the platform document (the OpenAPI components). */
export const PLATFORM_SCHEMAS = {
  PlatformError: PlatformErrorSchema,
  RuntimeSubject: SubjectSchema,
  RuntimeSession: RuntimeSessionSchema,
  RuntimeSessionExchangeRequest: ExchangeBody,
  EmptyObject: EmptyBody,
  OrganizationMembersListRequest: MembersListBody,
  OrganizationGroup: DirectoryGroupSchema,
  OrganizationGroupList: DirectoryGroupList,
  OrganizationMember: DirectoryMemberSchema,
  OrganizationMemberPage: DirectoryMemberPage,
} as const;
