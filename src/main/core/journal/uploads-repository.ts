import type { Database, Statement } from 'better-sqlite3';
import { checkSha256 } from './local-files-repository.js';
import type { MediaKind } from './local-files-repository.js';
import { opt } from './json.js';

/** Multipart field the bytes were uploaded in. */
export type UploadField = 'file' | 'image' | 'video' | 'audio';

/**
 * How long an asset must still be valid after the lookup to be reused: it has to outlive the rest
 * of the submission (other uploads, a prompt optimization of up to 3 minutes, create retries).
 */
export const DEFAULT_REUSE_SAFETY_MARGIN_MS = 30 * 60 * 1000;

/** A remote input asset holding some local bytes, scoped to one profile, credential and model. */
export interface Upload {
  readonly id: number;
  readonly sha256: string;
  readonly byteSize: number;
  readonly profileId: string;
  /** One-way fingerprint of the key or token it was uploaded under (never the secret). */
  readonly credentialFingerprint?: string;
  readonly model: string;
  readonly uploadField: UploadField;
  readonly assetId: string;
  readonly publicationId?: string;
  readonly assetKind: MediaKind;
  readonly mimeType: string;
  /** The service answered with an existing asset of the same identity and model scope. */
  readonly reused: boolean;
  readonly uploadedAt: number;
  /** Authoritative expiry from the service (epoch ms). */
  readonly expiresAt: number;
}

export interface NewUpload {
  readonly sha256: string;
  readonly byteSize: number;
  readonly profileId: string;
  readonly credentialFingerprint: string;
  readonly model: string;
  readonly uploadField: UploadField;
  readonly assetId: string;
  readonly publicationId?: string;
  readonly assetKind: MediaKind;
  readonly mimeType: string;
  readonly reused: boolean;
  readonly expiresAt: number;
  readonly uploadedAt?: number;
}

export interface ReusableQuery {
  readonly sha256: string;
  readonly profileId: string;
  /** The credential the caller will reference the asset with: only its own uploads are reused. */
  readonly credentialFingerprint: string;
  readonly model: string;
  readonly uploadField: UploadField;
  /** Defaults to now. */
  readonly now?: number;
  /** Defaults to {@link DEFAULT_REUSE_SAFETY_MARGIN_MS}. */
  readonly safetyMarginMs?: number;
}

interface Row {
  id: number;
  sha256: string;
  byte_size: number;
  profile_id: string;
  credential_fingerprint: string | null;
  model: string;
  upload_field: UploadField;
  asset_id: string;
  publication_id: string | null;
  asset_kind: MediaKind;
  mime_type: string;
  reused: number;
  uploaded_at: number;
  expires_at: number;
}

const toUpload = (row: Row): Upload => ({
  id: row.id,
  sha256: row.sha256,
  byteSize: row.byte_size,
  profileId: row.profile_id,
  credentialFingerprint: opt(row.credential_fingerprint),
  model: row.model,
  uploadField: row.upload_field,
  assetId: row.asset_id,
  publicationId: opt(row.publication_id),
  assetKind: row.asset_kind,
  mimeType: row.mime_type,
  reused: row.reused === 1,
  uploadedAt: row.uploaded_at,
  expiresAt: row.expires_at,
});

export class UploadsRepository {
  private readonly upsertStmt: Statement;
  private readonly byAssetStmt: Statement<[string, string, string], Row>;
  private readonly reusableStmt: Statement<[string, string, string, string, string, number], Row>;
  private readonly deleteStmt: Statement<[number]>;
  private readonly deleteProfileStmt: Statement<[string]>;
  private readonly pruneStmt: Statement<[number]>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.upsertStmt = db.prepare(
      `INSERT INTO uploads (sha256, byte_size, profile_id, credential_fingerprint, model, upload_field, asset_id,
         publication_id, asset_kind, mime_type, reused, uploaded_at, expires_at)
       VALUES (@sha256, @byteSize, @profileId, @credentialFingerprint, @model, @uploadField, @assetId,
         @publicationId, @assetKind, @mimeType, @reused, @uploadedAt, @expiresAt)
       ON CONFLICT (profile_id, model, asset_id) DO UPDATE SET sha256 = excluded.sha256,
         credential_fingerprint = excluded.credential_fingerprint,
         byte_size = excluded.byte_size, upload_field = excluded.upload_field,
         publication_id = excluded.publication_id, asset_kind = excluded.asset_kind,
         mime_type = excluded.mime_type, reused = excluded.reused, uploaded_at = excluded.uploaded_at,
         expires_at = excluded.expires_at`,
    );
    this.byAssetStmt = db.prepare(
      'SELECT * FROM uploads WHERE profile_id = ? AND model = ? AND asset_id = ?',
    );
    this.reusableStmt = db.prepare(
      `SELECT * FROM uploads
       WHERE profile_id = ? AND model = ? AND credential_fingerprint = ? AND sha256 = ? AND upload_field = ?
         AND expires_at > ?
       ORDER BY expires_at DESC LIMIT 1`,
    );
    this.deleteStmt = db.prepare('DELETE FROM uploads WHERE id = ?');
    this.deleteProfileStmt = db.prepare('DELETE FROM uploads WHERE profile_id = ?');
    this.pruneStmt = db.prepare('DELETE FROM uploads WHERE expires_at <= ?');
  }

  /** Records an upload response (a repeated assetId, e.g. `reused: true`, updates the row). */
  record(upload: NewUpload): Upload {
    if (!Number.isFinite(upload.expiresAt)) throw new RangeError('expiresAt must be a time (epoch ms).');
    if (!/^[0-9a-f]{64}$/.test(upload.credentialFingerprint))
      throw new RangeError('credentialFingerprint must be a credential fingerprint (64 hex digits).');
    this.upsertStmt.run({
      sha256: checkSha256(upload.sha256),
      byteSize: upload.byteSize,
      profileId: upload.profileId,
      credentialFingerprint: upload.credentialFingerprint,
      model: upload.model,
      uploadField: upload.uploadField,
      assetId: upload.assetId,
      publicationId: upload.publicationId ?? null,
      assetKind: upload.assetKind,
      mimeType: upload.mimeType,
      reused: upload.reused ? 1 : 0,
      uploadedAt: upload.uploadedAt ?? this.now(),
      expiresAt: upload.expiresAt,
    });
    return this.get(upload.profileId, upload.model, upload.assetId)!;
  }

  get(profileId: string, model: string, assetId: string): Upload | undefined {
    const row = this.byAssetStmt.get(profileId, model, assetId);
    return row && toUpload(row);
  }

  /**
   * A still-valid asset of the same bytes, profile, credential, model and upload field, valid at
   * least until `now + safetyMarginMs`; undefined means upload again. Never crosses profiles,
   * credentials (an asset belongs to the key or token that uploaded it) or models.
   */
  findReusable(query: ReusableQuery): Upload | undefined {
    const validUntil = (query.now ?? this.now()) + (query.safetyMarginMs ?? DEFAULT_REUSE_SAFETY_MARGIN_MS);
    const row = this.reusableStmt.get(
      query.profileId,
      query.model,
      query.credentialFingerprint,
      query.sha256,
      query.uploadField,
      validUntil,
    );
    return row && toUpload(row);
  }

  /** Forgets an asset the service no longer knows (e.g. a 404 on use). */
  forget(id: number): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** Forgets every asset of a profile (its key or token changed: they belong to the old identity). */
  forgetProfile(profileId: string): number {
    return this.deleteProfileStmt.run(profileId).changes;
  }

  /** Deletes rows of assets that expired at or before `at`. Returns how many. */
  pruneExpired(at: number = this.now()): number {
    return this.pruneStmt.run(at).changes;
  }
}
