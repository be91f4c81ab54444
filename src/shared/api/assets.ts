import { z } from 'zod';
import { DateTime, FreeFormObject } from './common.js';

export const AssetKind = z.enum(['image', 'audio', 'video', 'document']);
export type AssetKind = z.infer<typeof AssetKind>;

/** Query of `POST /assets/input`, `GET /jobs/{id}` and `GET|HEAD /assets/{id}/content`. */
export const ModelScopeQuery = z.object({ model: z.string().min(1) });
export type ModelScopeQuery = z.infer<typeof ModelScopeQuery>;

/** Multipart field names accepted for the one uploaded file. */
export const UPLOAD_FIELD_NAMES = ['file', 'image', 'video', 'audio'] as const;

export const InputAsset = z
  .object({
    assetId: z.string(),
    publicationId: z.string(),
    kind: AssetKind,
    mimeType: z.string(),
    byteSize: z.int().min(0),
    status: z.literal('available'),
    createdAt: DateTime,
    lastUploadedAt: DateTime,
    expiresAt: DateTime,
    reused: z.boolean(),
    storageBackend: z.string().optional(),
  })
  .loose();
export type InputAsset = z.infer<typeof InputAsset>;

/** Upload response: `asset` required, `usage` optional, no other top-level fields. */
export const UploadResponse = z.object({ asset: InputAsset, usage: FreeFormObject.optional() }).strict();
export type UploadResponse = z.infer<typeof UploadResponse>;

/** One result of a media job. */
export const MediaResultAsset = z
  .object({
    assetId: z.string(),
    contentUrl: z.url(),
    byteSize: z.int().min(0).optional(),
    kind: z.string().optional(),
    mimeType: z.string().optional(),
    sha256: z.string().optional(),
  })
  .loose();
export type MediaResultAsset = z.infer<typeof MediaResultAsset>;

/**
 * A result item as a client reads it: the spec's minimum, so a legacy `assets[]` item with only
 * `assetId` parses (its content URL is then built from the documented path).
 */
export const MediaResultAssetAnswer = MediaResultAsset.extend({ contentUrl: z.url().optional() });
export type MediaResultAssetAnswer = z.infer<typeof MediaResultAssetAnswer>;

const BinaryPart = z.string().meta({ format: 'binary' });

/** OpenAPI shape of the upload body: exactly one file, in `file` (general) or `image`, `video`, `audio`. */
export const UploadMultipart = z
  .object({ file: BinaryPart, image: BinaryPart, video: BinaryPart, audio: BinaryPart })
  .partial()
  .meta({
    description: 'multipart/form-data with exactly one file in one of these fields',
    minProperties: 1,
    maxProperties: 1,
  });
