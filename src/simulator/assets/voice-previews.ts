import { VOICE_PREVIEW_MODELS, VOICE_RENDER, VOICES } from '../catalog.js';
import type { SimulatorState } from '../context.js';
import { digestFile } from '../jobs/outputs.js';
import { renderAudio } from '../media/render-audio.js';
import { RenderCache } from '../media/render-cache.js';
import type { StoredAsset } from './asset-store.js';

const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);

/**
 * The preview of a published voice (`CatalogVoice.previewAssetId`), readable by every identity in
 * the speech model's scope. Rendered on first read (synthetic speech), then served from disk.
 */
export async function voicePreviewAsset(
  state: SimulatorState,
  assetId: string,
  model: string,
): Promise<StoredAsset | undefined> {
  if (!VOICE_PREVIEW_MODELS.includes(model)) return undefined;
  const voice = VOICES.find((v) => v.previewAssetId === assetId);
  if (!voice) return undefined;
  const plan = {
    flavor: 'speech' as const,
    text: `Hello, I am ${voice.displayName}. ${voice.description ?? ''}`.trim(),
    voice: VOICE_RENDER[voice.voiceId] ?? 'slt',
    seed: 0,
  };
  const file = await state.renders.produce(
    RenderCache.keyOf({ renderer: 'voice-preview/1', assetId, ...plan }),
    '.wav',
    (out) => renderAudio(plan, out),
  );
  const { sha256, byteSize } = await digestFile(file);
  return {
    assetId,
    identityId: '*',
    model,
    publicationId: model,
    origin: 'output',
    kind: 'audio',
    mimeType: 'audio/wav',
    byteSize,
    sha256,
    path: file,
    createdAtMs: 0,
    lastUploadedAtMs: 0,
    expiresAtMs: FAR_FUTURE_MS,
  };
}
