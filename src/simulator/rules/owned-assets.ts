import type { StoredAsset } from '../assets/asset-store.js';
import type { SimulatorState } from '../context.js';
import { ApiError, assetRejected } from '../errors.js';
import type { Identity } from '../identities.js';

/**
 * An input asset referenced by a request: 404 when unknown or not owned by this identity and
 * model scope (same answer for both), 422 when expired or of the wrong kind.
 */
export function ownedInputAsset(
  state: SimulatorState,
  identity: Identity,
  model: string,
  assetId: string,
  field: string,
  expectedKind?: StoredAsset['kind'],
): StoredAsset {
  const asset = state.assets.getOwned(assetId, identity.id, model);
  if (!asset || asset.origin !== 'input') {
    throw new ApiError(
      404,
      'asset_not_found',
      `No asset with this id is available to this identity and model scope (${field}).`,
      {
        details: { field },
      },
    );
  }
  if (state.assets.isExpired(asset, state.clock.nowMs())) {
    throw assetRejected('asset_expired', `The asset referenced by ${field} has expired; upload it again.`, {
      field,
    });
  }
  if (expectedKind && asset.kind !== expectedKind) {
    throw assetRejected(
      'asset_kind_mismatch',
      `${field} must reference a ${expectedKind} asset (got ${asset.kind}).`,
      {
        field,
        expectedKind,
        actualKind: asset.kind,
      },
    );
  }
  return asset;
}
