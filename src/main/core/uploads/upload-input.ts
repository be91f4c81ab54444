import type { InputRole } from '../../../shared/h3/draft.js';
import { isQuickTime } from '../../../shared/h3/draft.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { UploadField } from '../journal/uploads-repository.js';
import { ApiError, OutcomeUnknownError } from '../platform/api-errors.js';
import type { UploadProgress } from '../platform/multipart-file-body.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import { DEFAULT_RETRY_BACKOFF, backoffDelay, type BackoffPolicy } from '../platform/retry/backoff.js';
import { retryWaitMs } from '../platform/retry/retry-after.js';
import type { ProbedFile } from '../media/probe-media.js';
import { UploadCache } from './upload-cache.js';

export interface UploadedInput {
  assetId: string;
  expiresAt: number;
  /** The service reused an existing asset of the same identity and model scope. */
  reused: boolean;
  /** Framewright reused a still-valid asset from its journal: nothing was sent. */
  fromJournal: boolean;
}

/**
 * The multipart field for one input: an H3 `.mov` with an audio track is sent as `audio` (its
 * bytes stay a reference audio and use no video slot); everything else as `file`.
 */
export function uploadFieldFor(
  file: Pick<ProbedFile, 'mimeType' | 'hasAudioTrack'>,
  role?: InputRole,
): UploadField {
  if (role === 'reference_audio' && isQuickTime(file)) return 'audio';
  return 'file';
}

export interface UploadOptions {
  model: string;
  role?: InputRole;
  /** The asset must stay valid at least this long (ms) to be reused; else it is uploaded again. */
  safetyMarginMs?: number;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  onProgress?: (state: 'reused' | 'uploading' | 'uploaded') => void;
  /** Bytes of the streamed upload body (throttled; each attempt starts again at 0). */
  onBytes?: UploadProgress;
}

/**
 * Gets an asset id for a local file under one profile, credential and model: a still-valid asset
 * of the same bytes, profile, credential, model and field from the journal, or a new streamed upload. 429/503 and lost
 * connections are retried (an upload of the same bytes is safe to repeat); 413/415/422 and identity
 * errors are not.
 */
export async function uploadInput(
  journal: Journal,
  client: PublicApiClient,
  file: ProbedFile,
  options: UploadOptions,
): Promise<UploadedInput> {
  const key = {
    sha256: file.sha256,
    byteSize: file.byteSize,
    model: options.model,
    uploadField: uploadFieldFor(file, options.role),
  };
  const cache = await UploadCache.for(journal, client);
  const cached = cache.find(key, options.safetyMarginMs);
  if (cached) {
    options.onProgress?.('reused');
    return cached;
  }
  const maxAttempts = options.maxAttempts ?? 4;
  let lastError: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    options.onProgress?.('uploading');
    try {
      const { asset } = await client.uploadAsset({
        model: options.model,
        filePath: file.path,
        fileName: file.fileName,
        mimeType: file.mimeType,
        field: key.uploadField,
        ...(options.onBytes ? { onProgress: options.onBytes } : {}),
      });
      const uploaded = cache.record(key, asset);
      options.onProgress?.('uploaded');
      return uploaded;
    } catch (error) {
      lastError = error;
      let serverSeconds: number | undefined;
      if (
        error instanceof ApiError &&
        ['rate_limited', 'unavailable', 'gateway_timeout'].includes(error.kind)
      ) {
        serverSeconds = error.retryAfterSeconds;
      } else if (!(error instanceof OutcomeUnknownError)) {
        throw error instanceof ApiError
          ? new AppError(error.code, `${file.fileName}: ${error.message}`, error.details)
          : error;
      }
      if (attempt + 1 < maxAttempts) {
        // a Retry-After beyond the bound stops here with "the service asked to wait N s"
        const wait = retryWaitMs({
          serverSeconds,
          ownDelayMs: backoffDelay(options.backoff ?? DEFAULT_RETRY_BACKOFF, attempt),
          operation: `Upload ${file.fileName}`,
        });
        await client.clock.sleep(wait);
      }
    }
  }
  throw lastError;
}
