import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { INPUT_ASSET_LIFETIME_SECONDS, type StoredAsset } from '../assets/asset-store.js';
import { kindOfMime } from '../assets/upload-policy.js';
import { ROLE_KIND, type CatalogService } from '../catalog.js';
import type { SimulatorState } from '../context.js';
import { newId } from '../http.js';
import { EXTENSIONS } from '../routes/assets.js';
import { PlatformError } from './errors.js';
import {
  checkReadUrlAddress,
  checkReadUrlExpiry,
  checkReadUrlFacts,
  fetchReadUrl,
  type ReadUrlContent,
} from './read-url.js';

export interface RuntimeInput {
  readUrl: string;
  role: string;
  mimeType?: string;
  sha256?: string;
  byteSize?: number;
  expiresAt?: string;
}

/** What was found at one `readUrl` (the dry-run's `readUrlChecks[]` item; never the URL itself). */
export interface ReadUrlCheck {
  index: number;
  role: string;
  ok: boolean;
  mimeType?: string;
  byteSize?: number;
  sha256?: string;
  durationSeconds?: number;
  width?: number;
  height?: number;
  hasAudio?: boolean;
  code?: string;
}

/** The kind a role's content must be; a QuickTime file with sound is a reference audio (as in the public rules). */
export function kindFor(content: ReadUrlContent, role: string, field: string): StoredAsset['kind'] {
  const expected = ROLE_KIND[role];
  const detected = content.mimeType ? kindOfMime(content.mimeType) : undefined;
  const kind =
    expected === 'audio' && content.mimeType === 'video/quicktime' && content.probe?.hasAudio
      ? 'audio'
      : detected;
  if (!kind || kind !== expected)
    throw new PlatformError(
      422,
      'read_url_media_mismatch',
      `${field}: the content (${content.mimeType ?? 'unrecognised'}) is not ${expected} media for ${role}.`,
      { phase: 'input_validation', details: { field, role, detected: content.mimeType ?? null } },
    );
  if ((kind === 'audio' && !content.probe?.hasAudio) || (kind === 'video' && !content.probe?.hasVideo))
    throw new PlatformError(422, 'undecodable_media', `${field}: the ${kind} could not be decoded.`, {
      phase: 'input_validation',
      details: { field },
    });
  return kind;
}

/** Keeps read content as an input asset of the runtime identity and model (the same bytes reuse one asset). */
async function keepAsAsset(
  state: SimulatorState,
  identityId: string,
  service: CatalogService,
  content: ReadUrlContent,
  kind: StoredAsset['kind'],
): Promise<StoredAsset> {
  const nowMs = state.clock.nowMs();
  const existing = state.assets.findReusable(identityId, service.modelAlias, content.sha256, kind, nowMs);
  if (existing) {
    await rm(content.path, { force: true });
    return existing;
  }
  const assetId = newId('asset');
  const mimeType = content.mimeType!;
  const finalPath = path.join(state.dirs.uploads, assetId + (EXTENSIONS[mimeType] ?? '.bin'));
  await rename(content.path, finalPath);
  const asset: StoredAsset = {
    assetId,
    identityId,
    model: service.modelAlias,
    publicationId: service.publicationId,
    origin: 'input',
    kind,
    mimeType,
    byteSize: content.byteSize,
    sha256: content.sha256,
    path: finalPath,
    createdAtMs: nowMs,
    lastUploadedAtMs: nowMs,
    expiresAtMs: nowMs + INPUT_ASSET_LIFETIME_SECONDS * 1000,
    durationSeconds: content.probe?.durationSeconds,
    hasAudio: content.probe?.hasAudio,
    hasVideo: content.probe?.hasVideo,
  };
  state.assets.add(asset);
  state.log?.asset(asset);
  return asset;
}

/** What was read and probed (for `readUrlChecks`). */
function factsOf(content: ReadUrlContent): Omit<ReadUrlCheck, 'index' | 'role' | 'ok'> {
  const { probe } = content;
  return {
    ...(content.mimeType ? { mimeType: content.mimeType } : {}),
    byteSize: content.byteSize,
    sha256: content.sha256,
    ...(probe?.durationSeconds !== undefined && (probe.hasAudio || probe.frames !== 1)
      ? { durationSeconds: probe.durationSeconds }
      : {}),
    ...(probe?.width !== undefined && probe.height !== undefined
      ? { width: probe.width, height: probe.height }
      : {}),
    ...(probe ? { hasAudio: probe.hasAudio } : {}),
  };
}

export interface ResolvedInputs {
  assets: ({ asset: StoredAsset; input: RuntimeInput } | undefined)[];
  checks: ReadUrlCheck[];
  /** The first failure per input (dry-run reports them all; creation throws the first). */
  errors: PlatformError[];
}

/**
 * Reads every input: all addresses (and `expiresAt`s) are checked before any is contacted, then each is read,
 * its given `sha256`/`byteSize` and declared `mimeType` compared, its media probed, and it is
 * kept as an input asset so the H3 rules can check it like an upload.
 */
export async function resolveRuntimeInputs(
  state: SimulatorState,
  identityId: string,
  service: CatalogService,
  inputs: readonly RuntimeInput[],
): Promise<ResolvedInputs> {
  const urls = inputs.map((input, index) => {
    try {
      checkReadUrlExpiry(input.expiresAt, state.clock.nowMs(), `inputs.${index}.expiresAt`);
      return checkReadUrlAddress(input.readUrl, `inputs.${index}.readUrl`);
    } catch (error) {
      return error as PlatformError;
    }
  });
  const refused = urls.filter((u): u is PlatformError => u instanceof PlatformError);
  const result: ResolvedInputs = { assets: [], checks: [], errors: [] };
  if (refused.length > 0) {
    inputs.forEach((input, index) => {
      const u = urls[index];
      result.checks.push({
        index,
        role: input.role,
        ok: false,
        code: u instanceof PlatformError ? u.code : 'not_read',
      });
      result.assets.push(undefined);
    });
    result.errors.push(...refused);
    return result;
  }
  for (const [index, input] of inputs.entries()) {
    const field = `inputs.${index}.readUrl`;
    let content: ReadUrlContent | undefined;
    try {
      content = await fetchReadUrl(urls[index] as URL, field, state.dirs.tmp);
      checkReadUrlFacts(content, input, `inputs.${index}`);
      if (input.mimeType && content.mimeType && input.mimeType !== content.mimeType)
        throw new PlatformError(
          422,
          'read_url_media_mismatch',
          `inputs.${index}.mimeType does not match the content read.`,
          {
            phase: 'input_validation',
            details: { field: `inputs.${index}.mimeType`, detected: content.mimeType },
          },
        );
      const kind = kindFor(content, input.role, field);
      const asset = await keepAsAsset(state, identityId, service, content, kind);
      result.assets.push({ asset, input });
      result.checks.push({
        index,
        role: input.role,
        ok: true,
        ...factsOf(content),
        mimeType: asset.mimeType,
      });
    } catch (error) {
      if (content) await rm(content.path, { force: true });
      if (!(error instanceof PlatformError)) throw error;
      result.errors.push(error);
      result.assets.push(undefined);
      result.checks.push({
        index,
        role: input.role,
        ok: false,
        code: error.code,
        ...(content ? factsOf(content) : {}),
      });
    }
  }
  return result;
}
