import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError, OutcomeUnknownError, ResponseShapeError, failedBeforeSending } from '../api-errors.js';
import { redactValue } from '../../secrets/redact-value.js';

/**
 * A small typed client of the developer control plane (`application-platform-api.md`, section E,
 * `{developer_base_url}`), authenticated by the developer portal's token (`Authorization: Bearer`).
 *
 * The token is read per call from `token()` and sent only to the developer base URL's origin;
 * upload part URLs are short-lived credentials of their own: they are sent only as the `PUT` target
 * and never appear in an error message, a log or a returned error's details. Every call carries a
 * random `X-Request-ID` (spec, Conventions). No retry here: the release flow decides what is
 * replayed (same key and body) and when.
 */

const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

export const ValidationIssueSchema = loose({
  code: z.string(),
  path: z.string(),
  message: z.string(),
  severity: z.string().optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const ValidationProjectionSchema = loose({
  valid: z.boolean(),
  errors: z.array(ValidationIssueSchema),
  warnings: z.array(ValidationIssueSchema).default([]),
  normalizedSubmission: z.record(z.string(), z.unknown()).optional(),
  sourceSha256: z.string().optional(),
});
export type ValidationProjection = z.infer<typeof ValidationProjectionSchema>;

export const ApplicationSchema = loose({
  appId: z.string(),
  appKey: z.string(),
  name: z.string().optional(),
});
export const ApplicationListSchema = loose({ items: z.array(ApplicationSchema), total: z.number() });

export const VersionSchema = loose({
  versionId: z.string(),
  appId: z.string(),
  displayVersion: z.string(),
  status: z.string(),
  active: z.boolean().optional(),
  createdAt: z.string().optional(),
});
export type DeveloperVersion = z.infer<typeof VersionSchema>;
export const VersionListSchema = loose({ items: z.array(VersionSchema), total: z.number() });

export const BoundImageSchema = loose({
  imageAssetId: z.string(),
  component: z.string(),
  digest: z.string(),
});
export const VersionDetailSchema = VersionSchema.extend({
  recognized: loose({ images: z.array(BoundImageSchema).default([]) }).optional(),
});
export type VersionDetail = z.infer<typeof VersionDetailSchema>;

export const VersionRequestSchema = loose({
  requestId: z.string(),
  versionId: z.string(),
  kind: z.string(),
  status: z.string(),
  reason: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  decidedAt: z.string().optional(),
  appliedAt: z.string().optional(),
});
export type VersionRequest = z.infer<typeof VersionRequestSchema>;
export const VersionRequestListSchema = loose({ items: z.array(VersionRequestSchema), total: z.number() });

export const RoleSchema = loose({
  roleCode: z.string(),
  displayName: z.string(),
  description: z.string(),
  definitionVersion: z.number().int(),
  status: z.string(),
});
export type RoleDefinition = z.infer<typeof RoleSchema>;
export const RoleArraySchema = z.array(RoleSchema);

export const UploadPartSchema = loose({
  partNumber: z.number().int().positive(),
  url: z.string(),
  method: z.string(),
  sizeBytes: z.number().int().nonnegative().optional(),
});
export const UploadedPartSchema = loose({
  partNumber: z.number().int().positive(),
  etag: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});
export const ImageImportSessionSchema = loose({
  imageImportId: z.string(),
  status: z.enum(['pending', 'uploading', 'importing', 'completed', 'failed']),
  partSizeBytes: z.number().int().positive(),
  partCount: z.number().int().positive(),
  uploadParts: z.array(UploadPartSchema),
  uploadedParts: z.array(UploadedPartSchema),
  expiresAt: z.string().optional(),
  imageAssetId: z.string().optional(),
  digest: z.string().optional(),
  sizeBytes: z.number().optional(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
});
export type ImageImportSession = z.infer<typeof ImageImportSessionSchema>;

export interface ImageImportRequest {
  fileName: string;
  sizeBytes: number;
  sha256: string;
  archiveType: 'docker-archive' | 'oci-archive';
  component: string;
  displayVersion: string;
  idempotencyKey: string;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
  sizeBytes: number;
}

export interface DeveloperClientOptions {
  /** `{developer_base_url}`, ending with `/api/v1/appstore/developer`. */
  baseUrl: string;
  /** The developer portal's token, read per call (never kept in a field, never printed). */
  token: () => string;
  fetch?: typeof fetch;
  /** Per-call time limit (default 30 s, the reference client's total timeout). */
  timeoutMs?: number;
  /** A part upload's time limit (default 600 s, the reference client's image upload timeout). */
  uploadTimeoutMs?: number;
}

const ErrorBody = loose({ code: z.string(), message: z.string(), requestId: z.string().optional() });

export class DeveloperClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: DeveloperClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.doFetch = options.fetch ?? fetch;
  }

  get origin(): string {
    return new URL(this.base).origin;
  }

  listApps(): Promise<z.infer<typeof ApplicationListSchema>> {
    return this.call(
      'list applications',
      'GET',
      '/apps?page=1&pageSize=100',
      undefined,
      ApplicationListSchema,
    );
  }

  getRoles(appId: string): Promise<RoleDefinition[]> {
    return this.call('read roles', 'GET', `/apps/${seg(appId)}/roles`, undefined, RoleArraySchema);
  }

  putRoles(appId: string, roles: RoleDefinition[]): Promise<RoleDefinition[]> {
    return this.call('update roles', 'PUT', `/apps/${seg(appId)}/roles`, roles, RoleArraySchema);
  }

  validateSubmission(appId: string, submission: unknown): Promise<ValidationProjection> {
    return this.call(
      'validate the submission',
      'POST',
      `/apps/${seg(appId)}/submissions:validate`,
      submission,
      ValidationProjectionSchema,
    );
  }

  /** Multipart `submission`, `idempotencyKey` and `file` (the source file, equal to the normalized submission). */
  createVersion(
    appId: string,
    init: { submission: unknown; idempotencyKey: string; sourceFile: string },
  ): Promise<DeveloperVersion> {
    const form = new FormData();
    form.append('submission', JSON.stringify(init.submission));
    form.append('idempotencyKey', init.idempotencyKey);
    form.append(
      'file',
      new Blob([init.sourceFile], { type: 'application/json' }),
      'framewright-submission.json',
    );
    return this.call('create the version', 'POST', `/apps/${seg(appId)}/versions`, form, VersionSchema);
  }

  listVersions(appId: string): Promise<z.infer<typeof VersionListSchema>> {
    return this.call(
      'list versions',
      'GET',
      `/apps/${seg(appId)}/versions?page=1&pageSize=100`,
      undefined,
      VersionListSchema,
    );
  }

  getVersion(appId: string, versionId: string): Promise<VersionDetail> {
    return this.call(
      'read the version',
      'GET',
      `/apps/${seg(appId)}/versions/${seg(versionId)}`,
      undefined,
      VersionDetailSchema,
    );
  }

  submitVersion(appId: string, versionId: string): Promise<unknown> {
    return this.call(
      'submit the version',
      'POST',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/submit`,
      {},
      z.unknown(),
    );
  }

  listRequests(appId: string, versionId: string): Promise<VersionRequest[]> {
    return this.call(
      'list the version requests',
      'GET',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/requests`,
      undefined,
      VersionRequestListSchema,
    ).then((list) => list.items);
  }

  createRequest(
    appId: string,
    versionId: string,
    body: { kind: 'publish' | 'unpublish' | 'delete'; reason?: string },
  ): Promise<VersionRequest> {
    return this.call(
      `file a ${body.kind} request`,
      'POST',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/requests`,
      body,
      VersionRequestSchema,
    );
  }

  createImageImport(appId: string, versionId: string, body: ImageImportRequest): Promise<ImageImportSession> {
    return this.call(
      'create the image import',
      'POST',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/image-imports`,
      body,
      ImageImportSessionSchema,
    );
  }

  getImageImport(appId: string, versionId: string, imageImportId: string): Promise<ImageImportSession> {
    return this.call(
      'read the image import',
      'GET',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/image-imports/${seg(imageImportId)}`,
      undefined,
      ImageImportSessionSchema,
    );
  }

  completeImageImport(
    appId: string,
    versionId: string,
    imageImportId: string,
    parts: CompletedPart[],
  ): Promise<ImageImportSession> {
    return this.call(
      'complete the image import',
      'POST',
      `/apps/${seg(appId)}/versions/${seg(versionId)}/image-imports/${seg(imageImportId)}/complete`,
      { parts },
      ImageImportSessionSchema,
    );
  }

  /**
   * Sends one part to its signed URL with the method the session states; answers its ETag. The URL
   * is a credential: no developer token goes with it, and it is named in no error.
   */
  async uploadPart(
    part: { url: string; method: string; partNumber: number },
    bytes: Uint8Array,
  ): Promise<string> {
    const operation = `upload image part ${part.partNumber}`;
    let response: Response;
    try {
      response = await this.doFetch(part.url, {
        method: part.method,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.byteLength) },
        body: bytes,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.uploadTimeoutMs ?? 600_000),
      });
    } catch (error) {
      throw new OutcomeUnknownError(operation, causeOf(error), { notSent: failedBeforeSending(error) });
    }
    if (!response.ok) throw await this.errorOf(response, operation, [part.url]);
    await response.arrayBuffer().catch(() => undefined);
    const etag = response.headers.get('etag');
    if (!etag) throw new ResponseShapeError(operation, 'no ETag header');
    return etag;
  }

  private async call<T>(
    operation: string,
    method: string,
    suffix: string,
    body: unknown,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const url = this.base + suffix;
    const token = this.options.token();
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      'X-Request-ID': `req_${randomUUID()}`,
      Accept: 'application/json',
    };
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.doFetch(url, {
        method,
        headers,
        body: payload,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new OutcomeUnknownError(operation, causeOf(error), { notSent: failedBeforeSending(error) });
    }
    if (!response.ok) throw await this.errorOf(response, operation, [token]);
    let data: unknown;
    try {
      const text = await response.text();
      data = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ResponseShapeError(operation, 'the answer is not JSON');
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success)
      throw new ResponseShapeError(
        operation,
        parsed.error.issues.map((i) => `${i.path.join('.') || '$'}: ${i.message}`).join('; '),
      );
    // an answer never carries the developer token back; if it did, it would not be shown
    return redactValue(parsed.data, [token]);
  }

  private async errorOf(response: Response, operation: string, secrets: string[]): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const body = ErrorBody.safeParse(json);
    const retryAfter = Number(response.headers.get('retry-after'));
    const details = body.success ? (body.data as { details?: unknown }).details : undefined;
    return redactValue(
      new ApiError({
        status: response.status,
        apiCode: body.success ? body.data.code : `http_${response.status}`,
        message: `${operation}: ${body.success ? body.data.message : `HTTP ${response.status}`}`,
        requestId: body.success ? body.data.requestId : (response.headers.get('x-request-id') ?? undefined),
        retryable: response.status === 429 || response.status >= 500,
        ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
        details: redactValue(details, secrets),
      }),
      secrets,
    );
  }
}

const seg = (value: string) => encodeURIComponent(value);

/** A network failure's cause, without the URL (a part URL is a credential). */
function causeOf(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.code ?? 'connection failed';
}
