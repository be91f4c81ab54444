import { readUploadLimits } from '../../../shared/api/contract-vocabulary.js';
import path from 'node:path';
import type { PublicService } from '../../../shared/api/discovery.js';
import type { RoleUploadLimit } from '../../../shared/api/media-spec-contract.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia, type ProbedFile } from '../media/probe-media.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import type { UploadedInput } from '../uploads/upload-input.js';
import { sleep } from '../jobs/backoff.js';
import { ApiError } from '../platform/api-errors.js';
import { InputLimitError, SYNC_RETRY } from './service-common.js';

const MiB = 1024 * 1024;

/** The spec's general upload limits, used when a service publishes none for a role. */
export const GENERAL_LIMITS: Record<string, RoleUploadLimit> = {
  input_image: { formats: ['image/png', 'image/jpeg', 'image/webp'], maxBytes: 16 * MiB },
  input_audio: { formats: ['audio/wav'], maxBytes: 25 * MiB },
  input_video: { formats: ['video/mp4'], maxBytes: 128 * MiB },
  input_document: { formats: ['application/pdf'], maxBytes: 64 * MiB },
};

/** The upload rule of one input role: the service's `mediaSpecContract.uploadLimits`, else the general one. */
export function uploadLimitFor(service: PublicService, role: string): RoleUploadLimit | undefined {
  return readUploadLimits(service.mediaSpecContract)[role] ?? GENERAL_LIMITS[role];
}

/** Probes a local file and checks it against the role's published format and size, before any upload. */
export async function checkInputFile(
  service: PublicService,
  filePath: string,
  role: string,
): Promise<ProbedFile> {
  return checkProbedFile(service, await probeMedia(filePath), role);
}

/** Checks an already probed file against the role's published format and size. */
export function checkProbedFile(service: PublicService, file: ProbedFile, role: string): ProbedFile {
  const limit = uploadLimitFor(service, role);
  const name = path.basename(file.path);
  if (limit?.formats && !limit.formats.includes(file.mimeType))
    throw new InputLimitError(
      'file',
      `${name} is ${file.mimeType}; ${service.modelAlias} takes ${limit.formats.join(', ')} here.`,
    );
  if (limit?.maxBytes !== undefined && file.byteSize > limit.maxBytes)
    throw new InputLimitError(
      'file',
      `${name} is ${file.byteSize} bytes; ${service.modelAlias} takes at most ${limit.maxBytes} bytes here.`,
    );
  return file;
}

/**
 * Uploads a checked file under this profile and model, or reuses a still-valid asset of the same
 * bytes from the journal (nothing sent). 429/503 are retried after `Retry-After` (bounded); other
 * errors keep their ApiError (413, 415, 402, …) so callers and the CLI can tell them apart.
 */
export async function uploadChecked(
  journal: Journal,
  client: PublicApiClient,
  service: PublicService,
  file: ProbedFile,
): Promise<UploadedInput> {
  const cached = journal.uploads.findReusable({
    sha256: file.sha256,
    profileId: client.profileId,
    model: service.modelAlias,
    uploadField: 'file',
  });
  if (cached)
    return { assetId: cached.assetId, expiresAt: cached.expiresAt, reused: cached.reused, fromJournal: true };
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { asset } = await client.uploadAsset({
        model: service.modelAlias,
        filePath: file.path,
        fileName: file.fileName,
        mimeType: file.mimeType,
        field: 'file',
      });
      const expiresAt = Date.parse(asset.expiresAt);
      journal.uploads.record({
        sha256: file.sha256,
        byteSize: file.byteSize,
        profileId: client.profileId,
        model: service.modelAlias,
        uploadField: 'file',
        assetId: asset.assetId,
        publicationId: asset.publicationId,
        assetKind: asset.kind,
        mimeType: asset.mimeType,
        reused: asset.reused,
        expiresAt,
      });
      return { assetId: asset.assetId, expiresAt, reused: asset.reused, fromJournal: false };
    } catch (error) {
      const again =
        error instanceof ApiError &&
        (error.kind === 'rate_limited' || error.kind === 'unavailable') &&
        attempt < SYNC_RETRY.maxAttempts;
      if (!again) throw error;
      await sleep(Math.min(SYNC_RETRY.maxDelayMs, Math.max(200, (error.retryAfterSeconds ?? 1) * 1000)));
    }
  }
}
