import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { AssetKind } from '../../shared/api/assets.js';
import { OUTPUT_ASSET_LIFETIME_SECONDS, type StoredAsset } from '../assets/asset-store.js';
import type { SimulatorState } from '../context.js';
import { newId } from '../http.js';
import type { StoredJob } from './job-store.js';

const digests = new Map<string, Promise<{ sha256: string; byteSize: number }>>();

/** sha256 and size of a rendered file (files are immutable once rendered, so cached by path). */
export function digestFile(filePath: string): Promise<{ sha256: string; byteSize: number }> {
  let pending = digests.get(filePath);
  if (!pending) {
    pending = (async () => {
      const hash = createHash('sha256');
      await new Promise<void>((resolve, reject) => {
        createReadStream(filePath)
          .on('data', (chunk) => hash.update(chunk))
          .on('end', resolve)
          .on('error', reject);
      });
      const info = await stat(filePath);
      return { sha256: hash.digest('hex'), byteSize: info.size };
    })();
    pending.catch(() => digests.delete(filePath));
    digests.set(filePath, pending);
  }
  return pending;
}

/** Registers a rendered file as a result asset of the job's identity and model. */
export async function registerOutput(
  state: SimulatorState,
  job: StoredJob,
  filePath: string,
  kind: AssetKind,
  mimeType: string,
): Promise<StoredAsset> {
  const { sha256, byteSize } = await digestFile(filePath);
  const nowMs = state.clock.nowMs();
  const asset = state.assets.add({
    assetId: newId('result'),
    identityId: job.identityId,
    model: job.model,
    publicationId: job.model,
    origin: 'output',
    kind,
    mimeType,
    byteSize,
    sha256,
    path: filePath,
    createdAtMs: nowMs,
    lastUploadedAtMs: nowMs,
    expiresAtMs: nowMs + OUTPUT_ASSET_LIFETIME_SECONDS * 1000,
  });
  state.log?.asset(asset);
  return asset;
}
