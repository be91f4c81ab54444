import type { PromptOptimizationResponse } from '../../shared/api/prompt-optimization.js';
import type { RoleUploadLimit } from '../../shared/api/media-spec-contract.js';
import { findService, uploadLimitsFor } from '../catalog.js';
import { ApiError } from '../errors.js';
import { bodyHash, checkIdempotencyKey } from '../idempotency.js';
import { parseWith, readJsonObject, sendJson, sleep } from '../http.js';
import {
  checkUniqueReferences,
  createOptimization,
  OPTIMIZATION_SECONDS,
  validateOptimization,
} from '../routes/prompt-optimization.js';
import { PlatformError } from './errors.js';
import { checkDeclaredType, discardContents, readInputs, unsupportedType } from './read-inputs.js';
import { READ_URL_MAX_BYTES, type ReadUrlContent } from './read-url.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { kindFor } from './runtime-inputs.js';
import { keyReservations } from './key-reservations.js';
import { runtimeIdentityId } from './runtime-job-store.js';
import { errorDoc } from './schemas.js';
import { RuntimeOptimizationRequest, RuntimeOptimizationResponse } from './sync-schemas.js';

/**
 * `POST /media/prompt-optimizations` in its runtime form: the public optimization (same checks,
 * same rewrite, same idempotency) for a user session, with references read from `readUrl`
 * (`byteSize` and `sha256` required and checked against the content), never kept.
 */

/** The public form's reference fields, refused with their own code rather than as unknown keys. */
function refusePublicReferenceFields(raw: Record<string, unknown>): void {
  const refs = Array.isArray(raw.referenceInputs) ? (raw.referenceInputs as unknown[]) : [];
  refs.forEach((ref, index) => {
    if (ref === null || typeof ref !== 'object') return;
    if ('assetId' in ref)
      throw new PlatformError(
        400,
        'asset_id_not_accepted',
        `referenceInputs.${index}.assetId: the runtime takes no personal asset id; send readUrl, byteSize and sha256.`,
        { phase: 'input_validation', details: { field: `referenceInputs.${index}.assetId` } },
      );
    if ('mediaType' in ref)
      throw new PlatformError(
        400,
        'media_type_not_accepted',
        `referenceInputs.${index}.mediaType is not sent: the role says the kind.`,
        { phase: 'input_validation', details: { field: `referenceInputs.${index}.mediaType` } },
      );
  });
}

/**
 * What an upload for the reference's role would have checked (a public optimization takes only
 * uploaded assets): the role's formats and, where the role bounds it (audio), each clip's duration.
 */
function checkAsUpload(content: ReadUrlContent, limit: RoleUploadLimit | undefined, field: string): void {
  if (!limit) return;
  if (limit.formats && !limit.formats.includes(content.mimeType ?? ''))
    throw unsupportedType(content.mimeType ?? 'unrecognised', limit.formats, field);
  const duration = content.probe?.durationSeconds;
  if (limit.minSeconds === undefined && limit.maxSeconds === undefined) return;
  if (
    duration === undefined ||
    duration < (limit.minSeconds ?? 0) - 0.0005 ||
    duration > (limit.maxSeconds ?? Infinity) + 0.0005
  )
    throw new PlatformError(
      422,
      'audio_duration_out_of_range',
      `${field}: audio must last ${limit.minSeconds ?? 0}..${limit.maxSeconds} s (got ${duration?.toFixed(3) ?? 'unknown'} s).`,
      {
        phase: 'input_validation',
        details: {
          field,
          durationSeconds: duration,
          minSeconds: limit.minSeconds,
          maxSeconds: limit.maxSeconds,
        },
      },
    );
}

/** The runtime answer: the public optimization plus the service's `publicationId` (information only). */
function runtimeForm(response: PromptOptimizationResponse, publicationId: string) {
  const { optimizationId, ...rest } = response.optimization;
  return { requestId: response.requestId, optimization: { optimizationId, publicationId, ...rest } };
}

async function optimize(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const raw = await readJsonObject(pc.req);
  const header = pc.req.headers['idempotency-key'];
  const key = checkIdempotencyKey(Array.isArray(header) ? header[0] : header);
  if (key === undefined)
    throw new PlatformError(
      400,
      'idempotency_key_required',
      'Header Idempotency-Key is required and must equal clientRequestId.',
      { phase: 'idempotency', details: { header: 'Idempotency-Key' } },
    );
  const { state } = pc;
  const identityId = runtimeIdentityId(pc.app.appKey, session.subject.userId);
  const hash = bodyHash(raw);
  const conflict = () =>
    new ApiError(
      409,
      'idempotency_conflict',
      'This Idempotency-Key was already used with a different request body.',
      {
        details: { header: 'Idempotency-Key' },
      },
    );
  // the key is held from its check to the stored optimization (the references are read in between)
  await keyReservations(state.platform).hold(
    `optimization\u0000${identityId}\u0000${key}`,
    hash,
    conflict,
    () => optimizeOnce(pc, raw, key, identityId, hash),
  );
}

async function optimizeOnce(
  pc: PlatformContext,
  raw: Record<string, unknown>,
  key: string,
  identityId: string,
  hash: string,
): Promise<void> {
  const { state } = pc;
  const record = state.idempotency.lookup(identityId, 'prompt.optimization', key, hash);
  const stored = record ? state.optimizations.get(record.resourceId) : undefined;
  if (record && stored) {
    state.log?.idempotency(record);
    const publicationId = findService(record.model)?.publicationId ?? '';
    sendJson(pc.res, 201, runtimeForm(stored, publicationId), {
      'X-Request-Id': pc.requestId,
      'Idempotent-Replayed': 'true',
    });
    return;
  }
  refusePublicReferenceFields(raw);
  const body = parseWith(RuntimeOptimizationRequest, raw);
  if (key !== body.clientRequestId)
    throw new ApiError(400, 'idempotency_key_mismatch', 'Idempotency-Key must equal clientRequestId.', {
      details: { header: 'Idempotency-Key', field: 'clientRequestId' },
    });
  const { service, capability } = validateOptimization(body);
  checkUniqueReferences(body.referenceInputs, 'sha256', 'content (sha256)');
  const limits = uploadLimitsFor(service);
  const contents = await readInputs(
    state,
    body.referenceInputs,
    'referenceInputs',
    (index) => limits[body.referenceInputs[index]!.role]?.maxBytes ?? READ_URL_MAX_BYTES,
  );
  try {
    contents.forEach((content, index) => {
      const ref = body.referenceInputs[index]!;
      const field = `referenceInputs.${index}`;
      if (ref.mimeType !== undefined) checkDeclaredType(content, ref.mimeType, field);
      kindFor(content, ref.role, `${field}.readUrl`);
      checkAsUpload(content, limits[ref.role], field);
    });
  } finally {
    await discardContents(contents);
  }
  const response = createOptimization(state, identityId, key, hash, pc.requestId, service, capability, body);
  await sleep(OPTIMIZATION_SECONDS * state.timeScale * 1000);
  if (pc.scenario === 'dropped_connection') {
    pc.req.socket.destroy();
    return;
  }
  sendJson(pc.res, 201, runtimeForm(response, service.publicationId), { 'X-Request-Id': pc.requestId });
}

export const promptOptimizationRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/runtime/media/prompt-optimizations',
    surface: 'runtime_write',
    handler: optimize,
    doc: {
      operationId: 'createRuntimePromptOptimization',
      summary:
        'Rewrite a video prompt for a user session; references read from readUrl (never starts a job, stores no asset)',
      tags: ['runtime'],
      headers: [
        {
          name: 'X-Platform-Runtime-Session-Id',
          required: true,
          description: "the person's RuntimeSession (a job recovery reference cannot authorize optimization)",
        },
        { name: 'Idempotency-Key', required: true, description: 'equals clientRequestId' },
      ],
      requestBody: { schema: RuntimeOptimizationRequest, required: true },
      responses: {
        201: {
          description: 'Optimization (a replay of the same key and body answers it again)',
          schema: RuntimeOptimizationResponse,
        },
        400: errorDoc(
          'Invalid field, composition, asset id or mediaType, refused readUrl, missing or different key',
        ),
        401: errorDoc('Credential or session missing or invalid'),
        402: errorDoc('Insufficient balance'),
        403: errorDoc('A recovery reference cannot authorize optimization'),
        404: errorDoc('Model unknown'),
        409: errorDoc('Idempotency conflict, or service not available'),
        413: errorDoc('Body too large'),
        415: errorDoc('Not JSON'),
        422: errorDoc('readUrl content rejected (unreadable, checksum, size, kind)'),
        429: errorDoc('Rate limited (Retry-After)'),
        503: errorDoc('Unavailable (Retry-After)'),
        504: errorDoc('Gateway timeout'),
      },
    },
  },
];
