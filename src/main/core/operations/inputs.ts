import { readUploadLimits } from '../../../shared/api/contract-vocabulary.js';
import path from 'node:path';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { RoleUploadLimit } from '../../../shared/api/media-spec-contract.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { uploadInput, type UploadedInput } from '../uploads/upload-input.js';
import { isAssetNotFound } from '../uploads/upload-cache.js';
import { InputLimitError } from './service-common.js';

const MiB = 1024 * 1024;

/** The spec's general upload limits, used when a service publishes none for a role. */
export const GENERAL_LIMITS: Record<string, RoleUploadLimit> = {
  input_image: { formats: ['image/png', 'image/jpeg', 'image/webp'], maxBytes: 16 * MiB },
  input_audio: { formats: ['audio/wav'], maxBytes: 25 * MiB },
  input_video: { formats: ['video/mp4'], maxBytes: 128 * MiB },
  input_document: { formats: ['application/pdf'], maxBytes: 64 * MiB },
};

/** The upload rule of one input role: the service's `mediaSpecContract.uploadLimits`, else the general one. */
export function uploadLimitFor(service: ServiceEntry, role: string): RoleUploadLimit | undefined {
  return readUploadLimits(service.mediaSpecContract)[role] ?? GENERAL_LIMITS[role];
}

/** Probes a local file and checks it against the role's published format and size, before any upload. */
export async function checkInputFile(
  service: ServiceEntry,
  filePath: string,
  role: string,
): Promise<ProbedFile> {
  return checkProbedFile(service, await probeMedia(filePath), role);
}

/** Checks an already probed file against the role's published format and size. */
export function checkProbedFile(service: ServiceEntry, file: ProbedFile, role: string): ProbedFile {
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
 * bytes from the journal (nothing sent), through the one upload pipeline: 429/503 are retried
 * after `Retry-After` (the retry module's `playgroundUpload` row); other errors keep their ApiError (413, 415, 402, …) so callers and the CLI can tell them apart.
 */
export function uploadChecked(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  file: ProbedFile,
): Promise<UploadedInput> {
  return uploadInput(journal, client, file, {
    model: service.modelAlias,
    field: 'file',
    retry: 'playgroundUpload',
    keepServiceErrors: true,
  });
}

/** What may happen before a call refused for an unknown cached asset is made once more. */
export interface ResendOptions {
  /**
   * Called once the unknown ids are forgotten, before uploading again; false passes the 404 on
   * instead (a job intent may be sent again only when the refusal created nothing).
   */
  mayResend?: () => boolean;
  onStep?: (step: string) => void;
}

/**
 * Uploads (or reuses) checked files and runs the call that references them. When any asset came
 * from the journal and the service answers 404 `asset_not_found` (nothing was processed), the
 * cached ids are forgotten, the files uploaded again and the call made once more. A second 404
 * is passed on as it came (the inputs were just uploaded: it is not a stale cache).
 */
export async function withUploadedInputs<T>(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  files: readonly ProbedFile[],
  use: (assets: UploadedInput[]) => Promise<T>,
  options: ResendOptions = {},
): Promise<T> {
  const uploadAll = async () => {
    const assets: UploadedInput[] = [];
    for (const file of files) {
      options.onStep?.(`upload ${file.fileName}`);
      assets.push(await uploadChecked(journal, client, service, file));
    }
    return assets;
  };
  const assets = await uploadAll();
  try {
    return await use(assets);
  } catch (error) {
    const cached = assets.filter((asset) => asset.fromJournal);
    if (cached.length === 0 || !isAssetNotFound(error)) throw error;
    for (const asset of cached) {
      const row = journal.uploads.get(client.profileId, service.modelAlias, asset.assetId);
      if (row) journal.uploads.forget(row.id);
    }
    if (options.mayResend && !options.mayResend()) throw error;
    const fresh = await uploadAll();
    return use(fresh);
  }
}

/** {@link withUploadedInputs} for a call that references one file. */
export function withUploadedInput<T>(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  file: ProbedFile,
  use: (asset: UploadedInput) => Promise<T>,
): Promise<T> {
  return withUploadedInputs(journal, client, service, [file], ([asset]) => use(asset!));
}
