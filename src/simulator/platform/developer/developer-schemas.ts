import { z } from 'zod';

/**
 * Request and response shapes of the developer control plane (section E). The spec names the
 * ids and a few fields; everything else is the simulator's documented choice (README, section
 * "Developer control plane (section E)").
 */

const ISO = z.iso.datetime();
const Id = z.string().min(1).max(128);

export const PageQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,6}$/)
    .optional(),
  pageSize: z
    .string()
    .regex(/^[1-9]\d{0,2}$/)
    .optional(),
});

// ---------- submission (the version package's source file) ----------

export const DependencyDecl = z
  .object({
    calleeAppKey: z.string().min(1).max(128),
    apiVersion: z.string().min(1).max(64),
    scopes: z.array(z.string().min(2).max(128)).min(1).max(32),
  })
  .strict();

export const CapabilityDecl = z
  .object({
    apiVersion: z.string().min(1).max(64),
    scopes: z.array(z.string().min(2).max(128)).min(1).max(32),
    onlineDebug: z.boolean().optional(),
  })
  .strict();

export const ComponentDecl = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes'),
    /** The image of the component: only an `imageAssetId` of an image import (never a registry address). */
    imageAssetId: z.string().min(1).max(128).optional(),
    resources: z
      .object({
        cpuMillis: z.number().int().min(100).max(8000),
        memoryMiB: z.number().int().min(64).max(32768),
      })
      .strict()
      .optional(),
  })
  .strict();

export const SubmissionSchema = z
  .object({
    schemaVersion: z.literal(1).optional(),
    appKey: z.string().min(1).max(128),
    displayVersion: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'a semantic version'),
    releaseNotes: z.string().max(4000).optional(),
    entry: z
      .object({
        component: z.string().min(1),
        port: z.number().int().min(1).max(65535),
        healthPath: z.string().startsWith('/').max(256).optional(),
      })
      .strict(),
    components: z.array(ComponentDecl).min(1).max(16),
    dependencies: z.array(DependencyDecl).max(32).optional(),
    capabilities: z.array(CapabilityDecl).max(32).optional(),
    /** Accepted for compatibility, never trusted: `verified` is the platform's finding alone. */
    artifact: z.object({ verified: z.boolean().optional() }).strict().optional(),
  })
  .strict();
export type SubmissionInput = z.infer<typeof SubmissionSchema>;

/** The normalized submission (defaults filled in, `artifact` dropped): what a source file must equal. */
export const NormalizedSubmission = z
  .object({
    schemaVersion: z.literal(1),
    appKey: z.string(),
    displayVersion: z.string(),
    releaseNotes: z.string(),
    entry: z.object({ component: z.string(), port: z.number().int(), healthPath: z.string() }).strict(),
    components: z.array(
      z
        .object({
          name: z.string(),
          imageAssetId: z.string().optional(),
          resources: z.object({ cpuMillis: z.number().int(), memoryMiB: z.number().int() }).strict(),
        })
        .strict(),
    ),
    dependencies: z.array(DependencyDecl),
    capabilities: z.array(
      z.object({ apiVersion: z.string(), scopes: z.array(z.string()), onlineDebug: z.boolean() }).strict(),
    ),
  })
  .strict();
export type Submission = z.infer<typeof NormalizedSubmission>;

// ---------- publishers, applications, roles, test accounts ----------

export const PublisherSchema = z
  .object({ publisherId: z.string(), name: z.string(), status: z.string(), createdAt: ISO })
  .strict();
export const PublisherList = z
  .object({
    items: z.array(PublisherSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .strict();

export const ApplicationSchema = z
  .object({
    appId: z.string(),
    appKey: z.string(),
    name: z.string(),
    description: z.string(),
    publisherId: z.string(),
    status: z.string(),
    activeVersionId: z.string().nullable(),
    createdAt: ISO,
    updatedAt: ISO,
  })
  .strict();
export const ApplicationList = z
  .object({
    items: z.array(ApplicationSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .strict();

export const CreateAppRequest = z
  .object({
    publisherId: Id,
    app: z
      .object({
        id: z
          .string()
          .regex(/^app_[A-Za-z0-9_]{3,60}$/)
          .optional(),
        appKey: z.string().regex(/^[a-z][a-z0-9-]{2,62}$/, 'lowercase letters, digits and dashes, 3..63'),
        name: z.string().min(1).max(120),
        description: z.string().max(2000).optional(),
      })
      .strict(),
  })
  .strict();

export const RoleCode = z.string().regex(/^[a-z][a-z0-9_]{1,63}$/, 'lowercase letters, digits, underscores');
export const RoleDefinitionSchema = z
  .object({
    roleCode: RoleCode,
    displayName: z.string().min(1).max(120),
    description: z.string().max(1000),
    definitionVersion: z.number().int().positive(),
    status: z.enum(['active', 'retired']),
  })
  .strict();
export const RoleArray = z.array(RoleDefinitionSchema);
export const PutRolesRequest = z.array(RoleDefinitionSchema).max(64);

export const TestAccountSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    accountId: z.string(),
    organizationId: z.string(),
    displayName: z.string(),
    organizationName: z.string(),
    createdAt: ISO,
  })
  .strict();
export const TestAccountList = z.object({ items: z.array(TestAccountSchema) }).strict();

// ---------- validation, versions, sources ----------

export const ValidationIssue = z
  .object({ code: z.string(), path: z.string(), message: z.string(), severity: z.enum(['error', 'warning']) })
  .strict();
export const ValidationProjection = z
  .object({
    valid: z.boolean(),
    errors: z.array(ValidationIssue),
    warnings: z.array(ValidationIssue),
    normalizedSubmission: NormalizedSubmission.optional(),
    sourceSha256: z.string().optional(),
  })
  .strict();

export const CreateVersionRequest = z
  .object({ submission: z.unknown(), idempotencyKey: z.string().min(1).max(255) })
  .strict();

export const SourceReceipt = z
  .object({
    sha256: z.string(),
    sizeBytes: z.number().int().nonnegative(),
    receivedAt: ISO,
    origin: z.enum(['json', 'upload', 'seed']),
    fileName: z.string().optional(),
  })
  .strict();

export const BoundImage = z
  .object({
    imageAssetId: z.string(),
    component: z.string(),
    digest: z.string(),
    displayVersion: z.string().optional(),
  })
  .strict();

export const VersionRequestSchema = z
  .object({
    requestId: z.string(),
    appId: z.string(),
    versionId: z.string(),
    kind: z.enum(['delete', 'publish', 'unpublish', 'change']),
    reason: z.string().nullable(),
    status: z.enum(['draft', 'pending', 'approved', 'rejected', 'canceled', 'applied']),
    createdAt: ISO,
    updatedAt: ISO,
    decidedAt: ISO.optional(),
    appliedAt: ISO.optional(),
  })
  .strict();
export const VersionRequestList = z
  .object({ items: z.array(VersionRequestSchema), total: z.number().int().nonnegative() })
  .strict();

export const VERSION_STATUSES = ['draft', 'submitted', 'active', 'inactive', 'deleted'] as const;

export const VersionSchema = z
  .object({
    versionId: z.string(),
    appId: z.string(),
    appKey: z.string(),
    displayVersion: z.string(),
    releaseNotes: z.string(),
    status: z.enum(VERSION_STATUSES),
    active: z.boolean(),
    editable: z.boolean(),
    artifact: z.object({ verified: z.boolean(), verifiedAt: ISO.optional() }).strict(),
    createdAt: ISO,
    updatedAt: ISO,
  })
  .strict();
export const VersionDetail = VersionSchema.extend({
  sourceReceipt: SourceReceipt.nullable(),
  recognized: z
    .object({
      entry: z.object({ component: z.string(), port: z.number().int(), healthPath: z.string() }).strict(),
      components: z.array(z.object({ name: z.string(), imageAssetId: z.string().nullable() }).strict()),
      resources: z.array(
        z
          .object({ component: z.string(), cpuMillis: z.number().int(), memoryMiB: z.number().int() })
          .strict(),
      ),
      images: z.array(BoundImage),
      dependencies: z.array(DependencyDecl),
      capabilities: z.array(
        z.object({ apiVersion: z.string(), scopes: z.array(z.string()), onlineDebug: z.boolean() }).strict(),
      ),
    })
    .strict(),
  currentRequests: z.array(VersionRequestSchema),
}).strict();
export const VersionList = z
  .object({
    items: z.array(VersionSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .strict();

export const UpdateVersionRequest = z
  .object({
    displayVersion: SubmissionSchema.shape.displayVersion.optional(),
    releaseNotes: z.string().max(4000).optional(),
  })
  .strict();

export const DeleteVersionResponse = z
  .object({ versionId: z.string(), status: z.enum(VERSION_STATUSES), request: VersionRequestSchema })
  .strict();

export const SourceUploadResponse = z.object({ receipt: SourceReceipt, version: VersionSchema }).strict();

export const CreateRequestBody = z
  .object({ kind: z.enum(['delete', 'publish', 'unpublish']), reason: z.string().max(2000).optional() })
  .strict();

export const Difference = z
  .object({
    path: z.string(),
    change: z.enum(['added', 'removed', 'changed']),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  })
  .strict();

export const ProposalSchema = z
  .object({
    proposalId: z.string(),
    requestId: z.string(),
    versionId: z.string(),
    status: z.enum(['editing', 'submitted', 'approved', 'rejected', 'canceled', 'applied']),
    baseSha256: z.string(),
    workingSha256: z.string(),
    differences: z.array(Difference),
    images: z.array(BoundImage),
    createdAt: ISO,
    updatedAt: ISO,
  })
  .strict();
export const ChangeResponse = z.object({ request: VersionRequestSchema, proposal: ProposalSchema }).strict();
export const SubmitChangeBody = z.object({ reason: z.string().max(2000).optional() }).strict();

export const AuditEntry = z
  .object({
    at: ISO,
    action: z.string(),
    actor: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export const AuditResponse = z.object({ versionId: z.string(), items: z.array(AuditEntry) }).strict();

export const VersionCheck = z.object({ code: z.string(), passed: z.boolean(), message: z.string() }).strict();
export const VersionValidateResponse = z
  .object({
    versionId: z.string(),
    passed: z.boolean(),
    checks: z.array(VersionCheck),
    artifact: z.object({ verified: z.boolean(), verifiedAt: ISO.optional() }).strict(),
  })
  .strict();
export const VersionSubmitResponse = z
  .object({ versionId: z.string(), status: z.enum(VERSION_STATUSES), submittedAt: ISO })
  .strict();

export const PreviewLaunchRequest = z.object({ versionId: Id.optional() }).strict();
export const PreviewLaunchResponse = z
  .object({
    runtime: z
      .object({ launchCode: z.string(), appKey: z.string(), appVersionId: z.string(), expiresAt: ISO })
      .strict(),
  })
  .strict();

// ---------- image imports ----------

export const ImageImportRequest = z
  .object({
    fileName: z.string().min(1).max(255),
    sizeBytes: z
      .number()
      .int()
      .positive()
      .max(64 * 1024 * 1024 * 1024),
    sha256: z.string().max(200).optional(),
    archiveType: z.string().max(32).optional(),
    component: z.string().min(1).max(63),
    displayVersion: z.string().max(64).optional(),
    idempotencyKey: z.string().min(1).max(255),
  })
  .strict();

export const UploadPart = z
  .object({
    partNumber: z.number().int().positive(),
    url: z.string(),
    method: z.literal('PUT'),
    sizeBytes: z.number().int().positive(),
    expiresAt: ISO,
  })
  .strict();
export const UploadedPart = z
  .object({
    partNumber: z.number().int().positive(),
    etag: z.string(),
    sizeBytes: z.number().int().nonnegative(),
  })
  .strict();

export const ImageImportSession = z
  .object({
    imageImportId: z.string(),
    status: z.enum(['pending', 'uploading', 'importing', 'completed', 'failed']),
    appId: z.string(),
    versionId: z.string().optional(),
    changeRequestId: z.string().optional(),
    fileName: z.string(),
    sizeBytes: z.number().int(),
    archiveType: z.enum(['oci-archive', 'docker-archive']),
    component: z.string(),
    displayVersion: z.string().optional(),
    partSizeBytes: z.number().int().positive(),
    partCount: z.number().int().positive(),
    uploadParts: z.array(UploadPart),
    uploadedParts: z.array(UploadedPart),
    expiresAt: ISO,
    createdAt: ISO,
    imageAssetId: z.string().optional(),
    repository: z.string().optional(),
    digest: z.string().optional(),
    architecture: z.string().optional(),
    importedAt: ISO.optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
  })
  .strict();

export const CompleteImportRequest = z
  .object({
    parts: z
      .array(
        z
          .object({
            partNumber: z.number().int().positive(),
            etag: z.string().min(1).max(200),
            sizeBytes: z.number().int().nonnegative().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(10000),
  })
  .strict();

// ---------- CLI pairing ----------

export const CliAuthorizationRequest = z
  .object({
    codeChallenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'base64url of a sha256 (43 characters)'),
    codeChallengeMethod: z.literal('S256').optional(),
    redirectUri: z.string().min(1).max(2000),
    versionId: Id.optional(),
    testAccountId: Id.optional(),
  })
  .strict();
export const CliAuthorizationResponse = z.object({ authorizationCode: z.string(), expiresAt: ISO }).strict();

export const CliExchangeRequest = z
  .object({
    authorizationCode: z.string().min(1).max(512),
    codeVerifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'RFC 7636 code verifier (43..128 characters)'),
  })
  .strict();
export const CliSessionSchema = z
  .object({
    accessToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresAt: ISO,
    appId: z.string(),
    appKey: z.string(),
    appVersionId: z.string(),
    runtimeSessionId: z.string(),
    testAccountId: z.string().nullable(),
    scopes: z.array(z.string()),
    runtimeBaseUrl: z.string(),
    relayBaseUrl: z.string(),
    uploadBaseUrl: z.string(),
    developerBaseUrl: z.string(),
  })
  .strict();

// ---------- SDK ----------

export const SdkCredential = z
  .object({
    token: z.string(),
    expiresAt: ISO,
    indexURL: z.string(),
    packages: z.array(z.object({ name: z.string(), version: z.string() }).strict()),
    cliVersion: z.string(),
    sdkVersion: z.string(),
  })
  .strict();

// ---------- simulator inspection ----------

export const ReviewRequest = z
  .object({
    requestId: Id,
    decision: z.enum(['approve', 'reject', 'apply']),
    /**
     * With `approve`: the reviewer also applies it right after approving (the controlled apply as a
     * second step of the same call). Absent or false: it stays approved until a later `apply` —
     * the spec's order ("approval does not replace the live version until the later controlled
     * apply").
     */
    apply: z.boolean().optional(),
  })
  .strict();
export const ReviewResponse = z.object({ request: VersionRequestSchema, version: VersionSchema }).strict();
export const SdkIndexConfigRequest = z
  .object({ configured: z.boolean().optional(), released: z.boolean().optional() })
  .strict();
export const SdkIndexConfigResponse = z.object({ configured: z.boolean(), released: z.boolean() }).strict();
