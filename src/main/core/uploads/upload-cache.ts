import type { UploadResponse } from '../../../shared/api/assets.js';
import type { Journal } from '../journal/open-journal.js';
import type { UploadField } from '../journal/uploads-repository.js';
import { refusedForAssetGone } from '../journal/jobs-repository.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import type { UploadedInput } from './upload-input.js';

/** What identifies the bytes of one input for reuse. */
export interface CachedUploadKey {
  readonly sha256: string;
  readonly byteSize: number;
  readonly model: string;
  readonly uploadField: UploadField;
}

/**
 * The journal's record of uploaded input assets, per profile and credential: an asset is reused
 * only under the key or token that uploaded it (the spec: identities are not interchangeable).
 */
export class UploadCache {
  private constructor(
    private readonly journal: Journal,
    private readonly profileId: string,
    private readonly fingerprint: string,
  ) {}

  /** The cache for the credential `client` sends with now (reads the secret once, keeps a fingerprint). */
  static async for(journal: Journal, client: PublicApiClient): Promise<UploadCache> {
    return new UploadCache(journal, client.profileId, await client.credentialFingerprint());
  }

  /** A still-valid asset of these bytes uploaded under this credential, or undefined. */
  find(key: CachedUploadKey, safetyMarginMs?: number): UploadedInput | undefined {
    const cached = this.journal.uploads.findReusable({
      sha256: key.sha256,
      profileId: this.profileId,
      credentialFingerprint: this.fingerprint,
      model: key.model,
      uploadField: key.uploadField,
      ...(safetyMarginMs === undefined ? {} : { safetyMarginMs }),
    });
    return (
      cached && {
        assetId: cached.assetId,
        expiresAt: cached.expiresAt,
        reused: cached.reused,
        fromJournal: true,
      }
    );
  }

  /** Records the service's answer to an upload. */
  record(key: CachedUploadKey, asset: UploadResponse['asset']): UploadedInput {
    const expiresAt = Date.parse(asset.expiresAt);
    this.journal.uploads.record({
      sha256: key.sha256,
      byteSize: key.byteSize,
      profileId: this.profileId,
      credentialFingerprint: this.fingerprint,
      model: key.model,
      uploadField: key.uploadField,
      assetId: asset.assetId,
      publicationId: asset.publicationId,
      assetKind: asset.kind,
      mimeType: asset.mimeType,
      reused: asset.reused,
      expiresAt,
    });
    return { assetId: asset.assetId, expiresAt, reused: asset.reused, fromJournal: false };
  }
}

/**
 * The service's answer for an asset id unknown to (or not owned by) this identity and model scope
 * (404 `asset_not_found`), or for one whose lifetime is over (422 `asset_expired`: the spec's "assets
 * must be re-uploaded after expiry"; 422 is fixed "as a new business intent"). Nothing was processed.
 */
export function isAssetNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError && refusedForAssetGone({ statusCode: error.status, errorCode: error.apiCode })
  );
}

/**
 * Runs a request that references assets taken from the journal; when the service answers that an
 * asset is unknown (404 `asset_not_found`), those cached assets are forgotten before the error is
 * passed on, so the next submission uploads the bytes again instead of sending the same ids.
 */
export async function forgettingUnknownAssets<T>(
  journal: Journal,
  client: PublicApiClient,
  model: string,
  cachedAssetIds: readonly string[],
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (cachedAssetIds.length > 0 && isAssetNotFound(error))
      forgetCachedAssets(journal, client.profileId, model, cachedAssetIds);
    throw error;
  }
}

/** Forgets these cached uploads of a profile and model (the service no longer knows them). */
export function forgetCachedAssets(
  journal: Journal,
  profileId: string,
  model: string,
  assetIds: readonly string[],
): void {
  for (const assetId of assetIds) {
    const row = journal.uploads.get(profileId, model, assetId);
    if (row) journal.uploads.forget(row.id);
  }
}

/**
 * Forgets the cached uploads a refused create body names (any string in it that is a cached asset
 * id of this profile and model), so that a resend after `404 asset_not_found` uploads them again
 * even when the process stopped before {@link forgettingUnknownAssets} ran.
 */
export function forgetAssetsNamedIn(
  journal: Journal,
  profileId: string,
  model: string,
  canonicalBodyJson: string,
): void {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(JSON.parse(canonicalBodyJson));
  for (const assetId of new Set(strings)) {
    const row = journal.uploads.get(profileId, model, assetId);
    if (row) journal.uploads.forget(row.id);
  }
}
