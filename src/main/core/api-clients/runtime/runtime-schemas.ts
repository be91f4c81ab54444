import { z } from 'zod';
import { MAX_AMOUNT_SCALE } from './credit-amounts.js';
import { JOB_STATUSES } from '../../../../shared/api/job-statuses.js';
import {
  Optimization,
  OptimizationRole,
  PromptOptimizationRequest,
} from '../../../../shared/api/prompt-optimization.js';

/**
 * Answers of the platform's deployed runtime and session service (application-platform-api.md,
 * "Resources and their fields"). Every object is loose: the spec allows additional properties.
 */

/** One result of a runtime job (`results[]`). */
export const RuntimeJobResult = z
  .object({
    resultId: z.string().min(1),
    resultDownloadUrl: z.string().min(1),
    mimeType: z.string().optional(),
    byteSize: z.int().min(0).optional(),
    sha256: z.string().optional(),
  })
  .loose();
export type RuntimeJobResult = z.infer<typeof RuntimeJobResult>;

/** RuntimeJob: the body of `POST /media/jobs` and of the job reads. */
export const RuntimeJob = z
  .object({
    platformJobId: z.string().min(1),
    clientTaskId: z.string().optional(),
    status: z.enum(JOB_STATUSES),
    stage: z.string().optional(),
    /** Secret: returned at creation; reads do not guarantee to resend it. */
    jobRecoveryRef: z.string().optional(),
    results: z.array(RuntimeJobResult).optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
    retryable: z.boolean().optional(),
    model: z.string().optional(),
    serviceKind: z.string().optional(),
    createdAt: z.string().optional(),
  })
  .loose();
export type RuntimeJob = z.infer<typeof RuntimeJob>;

/** `POST /media/jobs:batch-get` answer. */
export const BatchGetAnswer = z
  .object({ items: z.array(RuntimeJob), missing: z.array(z.string()).default([]) })
  .loose();
export type BatchGetAnswer = z.infer<typeof BatchGetAnswer>;

/** A dry-run blocker (spec: `code`, `phase`, `message`, `retryable`; optional `httpStatus`, `details`). */
export const DryRunBlocker = z
  .object({
    code: z.string(),
    phase: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    httpStatus: z.int().optional(),
    details: z.unknown().optional(),
  })
  .loose();

/**
 * A dry-run's `estimatedCost`. The spec names `estimatedAmount` without its form: an integer (a
 * JSON integer or a string of digits) is read at `amountScale` decimals; a decimal (a JSON number
 * with a fraction, or a decimal string) is already the amount and is shown as the platform wrote it.
 */
export const DryRunEstimatedCost = z
  .object({
    /** A JSON number or a string of digits with an optional fraction (kept exact: see credit-amounts.ts). */
    estimatedAmount: z.union([z.number(), z.string().regex(/^-?\d{1,60}(\.\d{1,60})?$/)]),
    currency: z.string().optional(),
    unit: z.string().optional(),
    usage: z.number().optional(),
    resourceType: z.string().optional(),
    amountScale: z.int().min(0).max(MAX_AMOUNT_SCALE).optional(),
  })
  .loose();

/** One of a dry-run's `readUrlChecks`. */
export const DryRunReadUrlCheck = z
  .object({
    index: z.int().optional(),
    role: z.string().optional(),
    ok: z.boolean().optional(),
    code: z.string().optional(),
  })
  .loose();

/** `POST /media/jobs:dry-run` answer (`accepted: false` is a valid 200). */
export const DryRunAnswer = z
  .object({
    accepted: z.boolean(),
    clientTaskId: z.string().optional(),
    blockers: z.array(DryRunBlocker).default([]),
    // informative only: a cost in a form this build cannot read is left out, the decision stays
    estimatedCost: DryRunEstimatedCost.optional().catch(undefined),
    normalizedSpec: z.record(z.string(), z.unknown()).optional(),
    readUrlChecks: z.array(DryRunReadUrlCheck).optional(),
    traceId: z.string().optional(),
  })
  .loose();
export type DryRunAnswer = z.infer<typeof DryRunAnswer>;

/** `GET /available-services` list. */
export const AvailableServices = z
  .object({
    items: z.array(
      z
        .object({
          model: z.string(),
          displayName: z.string().optional(),
          serviceKind: z.string(),
          status: z.string(),
        })
        .loose(),
    ),
    page: z.int().optional(),
    pageSize: z.int().optional(),
    total: z.int().optional(),
  })
  .loose();
export type AvailableServices = z.infer<typeof AvailableServices>;

/** Marked export (`POST /media/exports`, `GET /media/exports/{exportId}`). */
export const MarkedExport = z
  .object({
    exportId: z.string().min(1),
    status: z.string().min(1),
    statusUrl: z.string().optional(),
    contentUrl: z.string().optional(),
    mimeType: z.string().optional(),
    byteSize: z.int().nonnegative().optional(),
    errorCode: z.string().optional(),
    retryAfterSeconds: z.number().nonnegative().optional(),
    expiresAt: z.string().optional(),
  })
  .loose();
export type MarkedExport = z.infer<typeof MarkedExport>;

/** `POST /resource-usage:aggregate` answer. */
export const ResourceUsage = z
  .object({
    items: z.array(z.record(z.string(), z.unknown())),
    amountScale: z.number(),
    asOf: z.string().optional(),
    freshness: z.unknown().optional(),
  })
  .loose();
export type ResourceUsage = z.infer<typeof ResourceUsage>;

/** RuntimeSession (`sessionId` is a secret: never logged). */
export const RuntimeSession = z
  .object({
    sessionId: z.string().min(1),
    appKey: z.string(),
    appVersionId: z.string(),
    subject: z
      .object({
        tenantId: z.string(),
        accountId: z.string(),
        workspaceId: z.string().optional(),
        userId: z.string(),
        organizationId: z.string().optional(),
        membershipId: z.string().optional(),
      })
      .loose(),
    appRoles: z.array(z.string()),
    expiresAt: z.string(),
  })
  .loose();
export type RuntimeSession = z.infer<typeof RuntimeSession>;

/** Organization directory groups. */
export const DirectoryGroups = z
  .object({
    items: z.array(
      z
        .object({
          groupId: z.string(),
          parentGroupId: z.string().nullish(),
          name: z.string(),
          groupPath: z.array(z.string()),
          depth: z.int(),
          directMemberCount: z.int().optional(),
          branchMemberCount: z.int().optional(),
        })
        .loose(),
    ),
  })
  .loose();
export type DirectoryGroups = z.infer<typeof DirectoryGroups>;

/** Organization directory members page. */
export const DirectoryMembers = z
  .object({
    items: z.array(
      z
        .object({
          membershipId: z.string(),
          accountId: z.string(),
          displayName: z.string(),
          groupId: z.string().optional(),
          groupPath: z.array(z.string()).optional(),
          organizationRoles: z.array(z.string()).default([]),
          appRoles: z.array(z.string()).default([]),
        })
        .loose(),
    ),
    page: z.int().optional(),
    pageSize: z.int().optional(),
    total: z.int().optional(),
  })
  .loose();
export type DirectoryMembers = z.infer<typeof DirectoryMembers>;

/** A runtime or session error body: `code`, `message`, and when applicable `phase`, `retryable`. */
export const RuntimeErrorBody = z
  .object({
    code: z.string().min(1),
    message: z.string(),
    phase: z.string().optional(),
    retryable: z.boolean().optional(),
    requestId: z.string().optional(),
    traceId: z.string().optional(),
    details: z.unknown().optional(),
  })
  .loose();

/**
 * An `inputs[]` item of a synchronous call (spec A: `{readUrl, mimeType}` for OCR and
 * transcription; chat's images and videos travel the same way), with the content's facts.
 */
export interface RuntimeCallInput {
  readUrl: string;
  mimeType: string;
  sha256?: string;
  byteSize?: number;
  expiresAt?: string;
}

/**
 * A reference of the runtime's prompt optimization (spec A, "Prompt optimization (runtime)"):
 * `role`, `readUrl`, `byteSize` (positive) and `sha256` (lowercase hex of the real content);
 * optional `mimeType` and `expiresAt`; neither `mediaType` nor a personal `assetId`.
 */
export const RuntimeOptimizationReference = z
  .object({
    role: OptimizationRole,
    readUrl: z.string().min(1),
    byteSize: z.int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    mimeType: z.string().min(1).optional(),
    expiresAt: z.string().optional(),
  })
  .strict();
export type RuntimeOptimizationReference = z.infer<typeof RuntimeOptimizationReference>;

/** The runtime optimization body: the public request with runtime references. */
export const RuntimeOptimizationRequest = PromptOptimizationRequest.extend({
  referenceInputs: z.array(RuntimeOptimizationReference).max(12),
});
export type RuntimeOptimizationRequest = z.infer<typeof RuntimeOptimizationRequest>;

/**
 * `POST /media/prompt-optimizations` answer (201): the public optimization plus the service's
 * `publicationId` (information only); further fields are allowed.
 */
export const RuntimeOptimizationAnswer = z
  .object({
    requestId: z.string(),
    optimization: Optimization.extend({ publicationId: z.string().optional() }).loose(),
  })
  .loose();
export type RuntimeOptimizationAnswer = z.infer<typeof RuntimeOptimizationAnswer>;

/**
 * An issued grant (section C): `grant` is the one-time plaintext (a secret: never logged, never
 * stored); a replay of the same issue (same key, same canonical request) answers the same fact,
 * which may come without the plaintext.
 */
export const IssuedGrant = z.object({ grant: z.string().min(1).optional(), expiresAt: z.string() }).loose();
export type IssuedGrant = z.infer<typeof IssuedGrant>;

/** A grant resolved by its callee (never its plaintext). */
export const ResolvedGrant = z
  .object({
    grantId: z.string(),
    callerAppKey: z.string(),
    calleeAppKey: z.string(),
    apiVersion: z.string(),
    subject: z.object({ userId: z.string() }).loose(),
    callerAppRoles: z.array(z.string()).optional(),
    scope: z.string(),
    idempotencyKey: z.string(),
    requestDigest: z.string(),
    expiresAt: z.string(),
  })
  .loose();
export type ResolvedGrant = z.infer<typeof ResolvedGrant>;
