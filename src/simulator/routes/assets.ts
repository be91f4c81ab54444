import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import {
  ModelScopeQuery,
  UPLOAD_FIELD_NAMES,
  UploadMultipart,
  UploadResponse,
} from '../../shared/api/assets.js';
import { PublicError } from '../../shared/api/errors.js';
import { INPUT_ASSET_LIFETIME_SECONDS, toInputAsset, type StoredAsset } from '../assets/asset-store.js';
import { discardFiles, receiveMultipart } from '../assets/multipart.js';
import {
  acceptedFormats,
  candidateRoles,
  kindOfMime,
  largestLimit,
  normaliseMime,
} from '../assets/upload-policy.js';
import { voicePreviewAsset } from '../assets/voice-previews.js';
import { uploadLimitsFor } from '../catalog.js';
import type { RequestContext, RouteDef } from '../context.js';
import { ApiError, assetRejected, notFound } from '../errors.js';
import { checkClientRequestIdHeader } from '../headers.js';
import { newId, sendJson } from '../http.js';
import { probeMedia } from '../media/probe.js';
import { resolveModel, resolveScopeModel } from '../models.js';

export const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'audio/wav': '.wav',
  'audio/mpeg': '.mp3',
  'audio/flac': '.flac',
  'audio/x-m4a': '.m4a',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/ogg': '.ogg',
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
  'application/pdf': '.pdf',
};

async function upload(rc: RequestContext): Promise<void> {
  const { state, identity } = rc;
  checkClientRequestIdHeader(rc);
  const scoped = resolveScopeModel(rc.query);
  const service = resolveModel(scoped.modelAlias, [scoped.serviceKind]);
  const limits = uploadLimitsFor(service);
  const { files } = await receiveMultipart(rc.req, state.dirs.tmp, largestLimit(limits));
  try {
    if (files.length !== 1) {
      throw new ApiError(
        400,
        'invalid_file_count',
        `Exactly one file is accepted per upload (got ${files.length}).`,
      );
    }
    const file = files[0]!;
    if (!(UPLOAD_FIELD_NAMES as readonly string[]).includes(file.fieldName)) {
      throw new ApiError(
        400,
        'invalid_field_name',
        `The file field must be one of ${UPLOAD_FIELD_NAMES.join(', ')}.`,
        {
          details: { field: file.fieldName },
        },
      );
    }
    if (file.byteSize === 0)
      throw new ApiError(400, 'empty_file', 'The uploaded file is empty.', {
        details: { field: file.fieldName },
      });
    const detected = await fileTypeFromFile(file.tmpPath);
    const accepted = acceptedFormats(limits);
    if (!detected) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'The file format could not be recognised from its content.',
        {
          details: { accepted },
        },
      );
    }
    const mime = normaliseMime(detected.mime);
    let kind = kindOfMime(mime);
    let probe: Awaited<ReturnType<typeof probeMedia>>;
    if (mime === 'video/quicktime') {
      probe = await probeMedia(file.tmpPath);
      if (probe?.hasAudio) {
        if (file.fieldName !== 'audio') {
          throw assetRejected(
            'mov_audio_field_required',
            'A .mov with an audio track must be sent in the "audio" field; it is a reference audio, not a video.',
            {
              field: file.fieldName,
            },
          );
        }
        kind = 'audio';
      }
    }
    if (!kind) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Format ${mime} is not accepted by ${service.modelAlias}.`,
        {
          details: { mimeType: mime, accepted },
        },
      );
    }
    if (file.fieldName !== 'file' && file.fieldName !== kind) {
      throw assetRejected('field_kind_mismatch', `The "${file.fieldName}" field carries ${kind} content.`, {
        field: file.fieldName,
        detectedKind: kind,
      });
    }
    const candidates = candidateRoles(limits, mime, kind);
    if (candidates.length === 0) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Format ${mime} is not accepted by ${service.modelAlias}.`,
        {
          details: { mimeType: mime, accepted },
        },
      );
    }
    const maxBytes = Math.max(...candidates.map((c) => c.limit.maxBytes ?? Number.MAX_SAFE_INTEGER));
    if (file.byteSize > maxBytes) {
      throw new ApiError(
        413,
        'payload_too_large',
        `A ${mime} file must be at most ${maxBytes} bytes for ${service.modelAlias}.`,
        {
          details: { maxBytes, byteSize: file.byteSize },
        },
      );
    }
    if (kind === 'audio' || kind === 'video') {
      probe ??= await probeMedia(file.tmpPath);
      if (!probe || (kind === 'audio' && !probe.hasAudio) || (kind === 'video' && !probe.hasVideo)) {
        throw assetRejected('undecodable_media', `The ${kind} file could not be decoded.`, {
          field: file.fieldName,
        });
      }
      if (kind === 'audio') {
        const duration = probe.durationSeconds ?? 0;
        const bounded = candidates.filter(
          (c) => c.limit.minSeconds !== undefined || c.limit.maxSeconds !== undefined,
        );
        const fits =
          bounded.length === 0 ||
          bounded.some(
            (c) =>
              duration >= (c.limit.minSeconds ?? 0) - 0.0005 &&
              duration <= (c.limit.maxSeconds ?? Infinity) + 0.0005,
          );
        if (!fits) {
          const limit = bounded[0]!.limit;
          throw assetRejected(
            'audio_duration_out_of_range',
            `Audio must last ${limit.minSeconds ?? 0}..${limit.maxSeconds} s (got ${duration.toFixed(3)} s).`,
            {
              field: file.fieldName,
              durationSeconds: duration,
              minSeconds: limit.minSeconds,
              maxSeconds: limit.maxSeconds,
            },
          );
        }
      }
    }

    const nowMs = state.clock.nowMs();
    const existing = state.assets.findReusable(identity.id, service.modelAlias, file.sha256, kind, nowMs);
    if (existing) {
      existing.lastUploadedAtMs = nowMs;
      existing.expiresAtMs = nowMs + INPUT_ASSET_LIFETIME_SECONDS * 1000;
      state.log?.asset(existing);
      await discardFiles(files);
      sendJson(rc.res, 201, usageBody(toInputAsset(existing, true), file.byteSize), {
        'X-Request-Id': rc.requestId,
      });
      return;
    }
    const assetId = newId('asset');
    const finalPath = path.join(state.dirs.uploads, assetId + (EXTENSIONS[mime] ?? '.bin'));
    await rename(file.tmpPath, finalPath);
    const asset: StoredAsset = {
      assetId,
      identityId: identity.id,
      model: service.modelAlias,
      publicationId: service.publicationId,
      origin: 'input',
      kind,
      mimeType: mime,
      byteSize: file.byteSize,
      sha256: file.sha256,
      path: finalPath,
      createdAtMs: nowMs,
      lastUploadedAtMs: nowMs,
      expiresAtMs: nowMs + INPUT_ASSET_LIFETIME_SECONDS * 1000,
      fieldName: file.fieldName,
      durationSeconds: probe?.durationSeconds,
      hasAudio: probe?.hasAudio,
      hasVideo: probe?.hasVideo,
    };
    state.assets.add(asset);
    state.log?.asset(asset);
    sendJson(rc.res, 201, usageBody(toInputAsset(asset, false), file.byteSize), {
      'X-Request-Id': rc.requestId,
    });
  } catch (error) {
    await discardFiles(files);
    throw error;
  }
}

function usageBody(asset: ReturnType<typeof toInputAsset>, bytes: number): UploadResponse {
  return { asset, usage: { operation: 'asset.upload', receivedBytes: bytes, billable: false } };
}

/** Parses a single `bytes=a-b` range; undefined when absent or unsatisfiable as a whole-file read. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'invalid' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, a, b] = match;
  let start: number;
  let end: number;
  if (a === '' && b === '') return 'invalid';
  if (a === '') {
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(size - 1, Number(b));
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

async function content(rc: RequestContext): Promise<void> {
  const { state, identity } = rc;
  const service = resolveScopeModel(rc.query);
  const assetId = rc.params.assetId ?? '';
  const asset =
    state.assets.getOwned(assetId, identity.id, service.modelAlias) ??
    (await voicePreviewAsset(state, assetId, service.modelAlias));
  if (!asset || state.assets.isExpired(asset, state.clock.nowMs())) throw notFound('asset');
  const headers: Record<string, string> = {
    'Content-Type': asset.mimeType,
    'Accept-Ranges': 'bytes',
    ETag: `"${asset.sha256}"`,
    'X-Content-Sha256': asset.sha256,
    'Content-Disposition': `inline; filename="${asset.assetId}${EXTENSIONS[asset.mimeType] ?? ''}"`,
    'Cache-Control': 'private, no-store',
    'X-Request-Id': rc.requestId,
  };
  const range = parseRange(rc.req.headers.range, asset.byteSize);
  if (range === 'invalid') {
    rc.res.writeHead(416, { ...headers, 'Content-Range': `bytes */${asset.byteSize}` });
    rc.res.end();
    return;
  }
  if (range) {
    rc.res.writeHead(206, {
      ...headers,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${asset.byteSize}`,
    });
  } else {
    rc.res.writeHead(200, { ...headers, 'Content-Length': String(asset.byteSize) });
  }
  if (rc.req.method === 'HEAD') {
    rc.res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(asset.path, range ? { start: range.start, end: range.end } : {});
    stream.on('error', reject);
    rc.res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(rc.res);
  });
}

const contentDoc = (method: 'get' | 'head') => ({
  operationId: method === 'get' ? 'getAssetContent' : 'headAssetContent',
  summary: method === 'get' ? 'Download an asset (binary)' : 'Asset headers only',
  tags: ['assets'],
  query: ModelScopeQuery,
  pathParams: ['assetId'],
  responses: {
    200: { description: 'Binary content', contentType: 'application/octet-stream' },
    404: { description: 'Unknown or not owned', schema: PublicError },
  },
});

export const assetRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/assets/input',
    routeClass: 'write',
    handler: upload,
    doc: {
      operationId: 'uploadInputAsset',
      summary: 'Upload one input asset (multipart, one file)',
      tags: ['assets'],
      query: ModelScopeQuery,
      headers: [
        { name: 'X-Client-Request-Id', required: false, description: 'visible ASCII, at most 512 bytes' },
      ],
      requestBody: {
        contentType: 'multipart/form-data',
        schema: UploadMultipart,
      },
      responses: {
        201: { description: 'Upload response', schema: UploadResponse },
        400: { description: 'Invalid request', schema: PublicError },
        413: { description: 'Too large', schema: PublicError },
        415: { description: 'Unsupported format', schema: PublicError },
        422: { description: 'Asset facts rejected', schema: PublicError },
      },
    },
  },
  {
    method: 'GET',
    path: '/assets/{assetId}/content',
    routeClass: 'read',
    handler: content,
    doc: contentDoc('get'),
  },
  {
    method: 'HEAD',
    path: '/assets/{assetId}/content',
    routeClass: 'read',
    handler: content,
    doc: contentDoc('head'),
  },
];
