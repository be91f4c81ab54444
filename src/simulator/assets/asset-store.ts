import type { AssetKind, InputAsset, MediaResultAsset } from '../../shared/api/assets.js';
import { iso } from '../clock.js';

/** Default lifetime of an input asset. */
export const INPUT_ASSET_LIFETIME_SECONDS = 24 * 60 * 60;
/** Lifetime of a result asset (not permanent either). */
export const OUTPUT_ASSET_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export interface StoredAsset {
  assetId: string;
  identityId: string;
  /** Model scope (alias) the asset belongs to. */
  model: string;
  publicationId: string;
  origin: 'input' | 'output';
  kind: AssetKind;
  mimeType: string;
  byteSize: number;
  sha256: string;
  /** File on disk holding the bytes. */
  path: string;
  createdAtMs: number;
  lastUploadedAtMs: number;
  expiresAtMs: number;
  /** Upload field name (file, image, video, audio). */
  fieldName?: string;
  durationSeconds?: number;
  hasAudio?: boolean;
  hasVideo?: boolean;
}

/** Input and result assets, each visible only to its identity and model scope. */
export class AssetStore {
  private readonly assets = new Map<string, StoredAsset>();

  add(asset: StoredAsset): StoredAsset {
    this.assets.set(asset.assetId, asset);
    return asset;
  }

  /** The asset when it exists AND belongs to this identity and model scope; undefined otherwise. */
  getOwned(assetId: string, identityId: string, model: string): StoredAsset | undefined {
    const asset = this.assets.get(assetId);
    if (!asset || asset.identityId !== identityId || asset.model !== model) return undefined;
    return asset;
  }

  /** An earlier upload of the same bytes and kind in the same identity and model scope, not expired. */
  findReusable(
    identityId: string,
    model: string,
    sha256: string,
    kind: AssetKind,
    nowMs: number,
  ): StoredAsset | undefined {
    for (const asset of this.assets.values()) {
      if (
        asset.origin === 'input' &&
        asset.identityId === identityId &&
        asset.model === model &&
        asset.sha256 === sha256 &&
        asset.kind === kind &&
        asset.expiresAtMs > nowMs
      ) {
        return asset;
      }
    }
    return undefined;
  }

  isExpired(asset: StoredAsset, nowMs: number): boolean {
    return asset.expiresAtMs <= nowMs;
  }

  get size(): number {
    return this.assets.size;
  }

  all(): StoredAsset[] {
    return [...this.assets.values()];
  }
}

export function toInputAsset(asset: StoredAsset, reused: boolean): InputAsset {
  return {
    assetId: asset.assetId,
    publicationId: asset.publicationId,
    kind: asset.kind,
    mimeType: asset.mimeType,
    byteSize: asset.byteSize,
    status: 'available',
    createdAt: iso(asset.createdAtMs),
    lastUploadedAt: iso(asset.lastUploadedAtMs),
    expiresAt: iso(asset.expiresAtMs),
    reused,
    storageBackend: 'simulator-local-disk',
  };
}

export function contentUrl(baseUrl: string, assetId: string, model: string): string {
  return `${baseUrl}/assets/${encodeURIComponent(assetId)}/content?model=${encodeURIComponent(model)}`;
}

export function toResultAsset(asset: StoredAsset, baseUrl: string): MediaResultAsset {
  return {
    assetId: asset.assetId,
    contentUrl: contentUrl(baseUrl, asset.assetId, asset.model),
    byteSize: asset.byteSize,
    kind: asset.kind,
    mimeType: asset.mimeType,
    sha256: asset.sha256,
  };
}
