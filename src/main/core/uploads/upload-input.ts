import type { InputRole } from '../../../shared/h3/draft.js';
import { isQuickTime } from '../../../shared/h3/draft.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { UploadField } from '../journal/uploads-repository.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { UploadProgress } from '../api-clients/multipart-file-body.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import type { BackoffPolicy } from '../api-clients/retry/backoff.js';
import { classify, withRetry, type RetryOperation } from '../api-clients/retry/retry.js';
import type { ProbedFile } from '../media-tools/probe-media.js';
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
  /** The multipart field (default: by the file and its role, see {@link uploadFieldFor}). */
  field?: UploadField;
  /** The asset must stay valid at least this long (ms) to be reused; else it is uploaded again. */
  safetyMarginMs?: number;
  /**
   * The retry module's row: `upload` (media jobs: 429/503, 504 and lost connections are sent
   * again; the same bytes are safe to repeat) or `playgroundUpload` (a user waits: 429/503 only).
   */
  retry?: Extract<RetryOperation, 'upload' | 'playgroundUpload'>;
  /**
   * Keep a service refusal as the ApiError it came as (the Playground and the CLI tell 413, 415
   * and 402 apart); by default it is reported with the file's name.
   */
  keepServiceErrors?: boolean;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  onProgress?: (state: 'reused' | 'uploading' | 'uploaded') => void;
  /** Bytes of the streamed upload body (throttled; each attempt starts again at 0). */
  onBytes?: UploadProgress;
}

/**
 * The one upload pipeline of `/assets/input` (spec: "Assets"): gets an asset id for a local file
 * under one profile, credential and model — a still-valid asset of the same bytes, profile,
 * credential, model and field from the journal, or a new streamed upload (with byte progress),
 * sent again by the retry module's `upload` or `playgroundUpload` row and recorded in the cache.
 * 413/415/422 and identity errors are never sent again.
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
    uploadField: options.field ?? uploadFieldFor(file, options.role),
  };
  const cache = await UploadCache.for(journal, client);
  const cached = cache.find(key, options.safetyMarginMs);
  if (cached) {
    options.onProgress?.('reused');
    return cached;
  }
  try {
    return await withRetry(
      options.retry ?? 'upload',
      async () => {
        options.onProgress?.('uploading');
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
      },
      {
        clock: client.clock,
        policy: {
          label: `Upload ${file.fileName}`,
          ...(options.maxAttempts !== undefined ? { attempts: options.maxAttempts } : {}),
          ...(options.backoff ? { backoff: options.backoff } : {}),
        },
      },
    );
  } catch (error) {
    if (error instanceof ApiError && !options.keepServiceErrors && classify(error).kind === 'final')
      throw new AppError(error.code, `${file.fileName}: ${error.message}`, error.details);
    throw error;
  }
}
