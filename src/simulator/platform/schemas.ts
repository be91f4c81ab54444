import { z } from 'zod';
import { JOB_STATUSES } from '../../shared/api/job-statuses.js';

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

/** An error response of a route's OpenAPI description. */
export const errorDoc = (description: string) => ({ description, schema: PlatformErrorSchema });

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

/** Said of the session-service bodies whose identity fields are ignored (`body.ts`). */
const IDENTITY_IGNORED =
  'Identity fields in the body (user, userId, tenantId, accountId, workspaceId, organizationId, membershipId, subject, role, roles, appRoles, callerAppRoles) are ignored: the person comes from the launch code or the session.';

export const ExchangeBody = z
  .object({ launchCode: z.string().min(1) })
  .strict()
  .describe(IDENTITY_IGNORED);

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

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase 64 hex');

export const RuntimeInputRole = z.enum([
  'first_frame',
  'last_frame',
  'reference_image',
  'reference_video',
  'reference_audio',
  'input_document',
]);

/** `inputs[]` item of a runtime job (no `mediaType`, no `purpose`, no asset id). */
export const RuntimeJobInput = z
  .object({
    readUrl: z.string().min(1),
    role: RuntimeInputRole,
    mimeType: z.string().min(1).optional(),
    sha256: Sha256Hex.optional(),
    byteSize: z.number().int().nonnegative().optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const ResourceAttribution = z
  .object({ resourceType: z.string().min(1), resourceId: z.string().min(1).max(255) })
  .strict();

/** `POST /media/jobs` and `:dry-run` body (the prompt lives in `params`, never at top level). */
export const RuntimeJobRequest = z
  .object({
    clientTaskId: z.string().min(1).max(255),
    model: z.string().min(1).optional(),
    serviceKind: z
      .string()
      .min(1)
      .optional()
      .describe(
        'video_generation, image_generation or audio_generation (others: 400 service_kind_not_supported); ' +
          "the model's kind when omitted with a model, else video_generation",
      ),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Business content of the public request: prompt (video, image, music, Foley), text, speaker, instruct (speech)',
      ),
    mediaSpec: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'The rest of the public request, no field also in params: H3 video generationMode, resolutionTier, ' +
          'orientation, seconds; image generationMode (t2i, i2i), imageCount, orientation, outputSizeCode, ' +
          'qualityTier, seed; audio generationMode, voiceMode, seconds, seed',
      ),
    inputs: z
      .array(RuntimeJobInput)
      .max(14)
      .optional()
      .describe(
        'H3 video: first_frame, last_frame and reference_* roles; image i2i: reference_image (1..4); ' +
          'Foley audio: exactly one reference_video; document_parse: exactly one input_document; ' +
          'speech, music and t2i: none',
      ),
    resourceAttribution: ResourceAttribution.optional(),
    idempotencyKey: z.string().min(1).max(255).optional(),
  })
  .strict();

export const RuntimeJobResult = z
  .object({
    resultId: z.string(),
    resultDownloadUrl: z.string(),
    mimeType: z.string().optional(),
    byteSize: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
  })
  .strict();

export const RuntimeJobSchema = z
  .object({
    platformJobId: z.string(),
    clientTaskId: z.string(),
    status: z.enum(JOB_STATUSES),
    stage: z.string(),
    model: z.string().optional(),
    serviceKind: z.string().optional(),
    jobRecoveryRef: z.string().optional(),
    results: z.array(RuntimeJobResult).optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
    retryable: z.boolean().optional(),
    createdAt: z.iso.datetime().optional(),
    updatedAt: z.iso.datetime().optional(),
  })
  .strict();

export const BatchGetRequest = z
  .object({ platformJobIds: z.array(z.string().min(1)).min(1).max(100) })
  .strict();

export const BatchGetResponse = z
  .object({ items: z.array(RuntimeJobSchema), missing: z.array(z.string()) })
  .strict();

export const DryRunBlocker = z
  .object({
    code: z.string(),
    phase: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    httpStatus: z.number().int().optional(),
    details: FreeForm.optional(),
  })
  .strict();

export const ReadUrlCheck = z
  .object({
    index: z.number().int().nonnegative(),
    role: z.string(),
    ok: z.boolean(),
    mimeType: z.string().optional(),
    byteSize: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
    durationSeconds: z.number().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    hasAudio: z.boolean().optional(),
    code: z.string().optional(),
  })
  .strict();

export const DryRunResult = z
  .object({
    accepted: z.boolean(),
    /** null only when the refused body named none (a schema refusal is a 200 too). */
    clientTaskId: z.string().nullable(),
    appContext: z
      .object({
        appKey: z.string(),
        appVersionId: z.string(),
        resourceAttribution: ResourceAttribution.optional(),
      })
      .strict(),
    serviceKind: z.string().optional(),
    model: z.string().optional(),
    normalizedSpec: FreeForm.optional(),
    estimatedCost: z
      .object({
        resourceType: z.string(),
        usage: z.number(),
        unit: z.enum(['second', 'image', 'request']),
        estimatedAmount: z.number(),
        amountScale: z.number().int(),
        currency: z.string(),
      })
      .strict()
      .optional(),
    admission: z
      .object({ decision: z.enum(['admit', 'reject']), reason: z.string().optional() })
      .strict()
      .optional(),
    blockers: z.array(DryRunBlocker),
    readUrlChecks: z.array(ReadUrlCheck),
    traceId: z.string(),
  })
  .strict();

export const AvailableServicesQuery = z
  .object({
    serviceKind: z.string().min(1).optional(),
    page: z.coerce.number().int().min(1).optional(),
    pageSize: z.coerce.number().int().min(1).max(200).optional(),
    includeUnavailable: z.enum(['true', 'false']).optional(),
  })
  .strict();

export const RuntimeService = z
  .object({
    model: z.string(),
    displayName: z.string(),
    serviceKind: z.string(),
    status: z.enum(['available', 'unavailable']),
    mediaSpecContract: FreeForm.optional(),
    apiUsageContract: FreeForm.optional(),
    promptOptimization: FreeForm.optional(),
  })
  .strict();

export const RuntimeServiceList = z
  .object({
    object: z.literal('list'),
    items: z.array(RuntimeService),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    total: z.number().int().nonnegative(),
    filters: z
      .object({ serviceKind: z.string().optional(), includeUnavailable: z.boolean() })
      .strict()
      .optional(),
  })
  .strict();

export const UsageGroupKey = z.enum(['accountId', 'serviceKind', 'day']);

export const ResourceUsageRequest = z
  .object({
    resourceType: z.string().min(1),
    resourceIds: z.array(z.string().min(1)).min(1).max(200),
    groupBy: z.array(UsageGroupKey).max(3).optional(),
  })
  .strict();

export const ResourceUsageItem = z
  .object({
    resourceId: z.string(),
    accountId: z.string().optional(),
    serviceKind: z.string().optional(),
    day: z.string().optional(),
    ledgerSettledCredits: z.number().int(),
    reservedCredits: z.number().int(),
    releasedCredits: z.number().int(),
    failedCredits: z.number().int(),
    pendingCredits: z.number().int(),
    requestCount: z.number().int().nonnegative(),
  })
  .strict();

export const ResourceUsageResponse = z
  .object({
    items: z.array(ResourceUsageItem),
    amountScale: z.number().int().nonnegative(),
    asOf: z.iso.datetime(),
    freshness: z.string(),
  })
  .strict();

export const EXPORT_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'] as const;

export const ExportRequest = z
  .object({
    source: z
      .object({
        readUrl: z.string().min(1),
        mimeType: z.enum(EXPORT_MIME_TYPES),
        sha256: Sha256Hex.optional(),
        appAssetRef: z.string().min(1).max(255).optional(),
        byteSize: z.number().int().nonnegative().optional(),
        filename: z.string().min(1).max(255).optional(),
        expiresAt: z.iso.datetime({ offset: true }).optional(),
      })
      .strict()
      .refine((s) => s.sha256 !== undefined || s.appAssetRef !== undefined, {
        message: 'at least one of sha256 and appAssetRef is required',
      }),
    idempotencyKey: z.string().min(1).max(255).optional(),
    intent: z.literal('download').optional(),
    deliveryMode: z.literal('marked').optional(),
  })
  .strict();

export const MarkedExport = z
  .object({
    exportId: z.string(),
    status: z.enum(['preparing', 'ready', 'failed']),
    statusUrl: z.string(),
    contentUrl: z.string().optional(),
    mimeType: z.string().optional(),
    byteSize: z.number().int().nonnegative().optional(),
    errorCode: z.string().optional(),
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    expiresAt: z.iso.datetime().optional(),
    deliveryMode: z.literal('marked'),
    intent: z.literal('download'),
  })
  .strict();

const RequestDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'sha256: followed by 64 lowercase hex');
const GrantScope = z
  .string()
  .regex(/^[a-z][\s\S]{1,127}$/u, '2..128 characters starting with a lowercase letter');

export const GrantIssueRequest = z
  .object({
    runtimeSessionId: z.string().min(1),
    calleeAppKey: z.string().min(1),
    scope: GrantScope,
    idempotencyKey: z.string().min(1).max(255),
    requestDigest: RequestDigest,
    apiVersion: z.string().min(1).optional(),
  })
  .strict()
  .describe(IDENTITY_IGNORED);

export const IssuedGrant = z
  .object({
    grant: z
      .string()
      .optional()
      .describe(
        'One-time plaintext: present only in the answer of the issue that made the grant; absent on a replay of the same issue (same key and canonical request)',
      ),
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const GrantUseRequest = z
  .object({ grant: z.string().min(1), scope: GrantScope, requestDigest: RequestDigest })
  .strict()
  .describe(IDENTITY_IGNORED);

export const ResolvedGrant = z
  .object({
    grantId: z.string(),
    callerAppKey: z.string(),
    callerAppVersionId: z.string(),
    calleeAppKey: z.string(),
    calleeAppVersionId: z.string(),
    apiVersion: z.string(),
    subject: SubjectSchema,
    callerAppRoles: z.array(z.string()),
    scope: z.string(),
    idempotencyKey: z.string(),
    requestDigest: z.string(),
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const GrantLaunch = z.object({ launchCode: z.string(), expiresAt: z.iso.datetime() }).strict();

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
  RuntimeJobInput,
  ResourceAttribution,
  RuntimeJobRequest,
  RuntimeJobResult,
  RuntimeJob: RuntimeJobSchema,
  RuntimeJobBatchGetRequest: BatchGetRequest,
  RuntimeJobBatchGetResponse: BatchGetResponse,
  DryRunBlocker,
  ReadUrlCheck,
  DryRunResult,
  RuntimeService,
  RuntimeServiceList,
  ResourceUsageRequest,
  ResourceUsageItem,
  ResourceUsageResponse,
  ExportRequest,
  MarkedExport,
  AppGrantIssueRequest: GrantIssueRequest,
  AppGrantIssued: IssuedGrant,
  AppGrantUseRequest: GrantUseRequest,
  AppGrantResolved: ResolvedGrant,
  AppGrantLaunch: GrantLaunch,
} as const;
