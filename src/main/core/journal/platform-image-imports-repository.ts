import type { Database, Statement } from 'better-sqlite3';

/** An image import session Framewright opened on the developer control plane (migration 015). */
export interface PlatformImageImport {
  readonly idempotencyKey: string;
  readonly appId: string;
  readonly versionId: string;
  readonly imageImportId: string;
  readonly fileSha256: string;
  readonly sizeBytes: number;
  readonly partSizeBytes: number;
  readonly partCount: number;
  readonly status: string;
  readonly imageAssetId: string | null;
  readonly digest: string | null;
}

/** A part the platform answered: its ETag and size. */
export interface PlatformImagePart {
  readonly partNumber: number;
  readonly etag: string;
  readonly sizeBytes: number;
}

interface ImportRow {
  idempotency_key: string;
  app_id: string;
  version_id: string;
  image_import_id: string;
  file_sha256: string;
  size_bytes: number;
  part_size_bytes: number;
  part_count: number;
  status: string;
  image_asset_id: string | null;
  digest: string | null;
}

const toImport = (r: ImportRow): PlatformImageImport => ({
  idempotencyKey: r.idempotency_key,
  appId: r.app_id,
  versionId: r.version_id,
  imageImportId: r.image_import_id,
  fileSha256: r.file_sha256,
  sizeBytes: r.size_bytes,
  partSizeBytes: r.part_size_bytes,
  partCount: r.part_count,
  status: r.status,
  imageAssetId: r.image_asset_id,
  digest: r.digest,
});

/**
 * The image imports of `framewright platform release` and their recorded parts. Never an upload
 * URL (a short-lived credential) nor a token: ids, sizes, digests and ETags only.
 */
export class PlatformImageImportsRepository {
  private readonly openStmt: Statement;
  private readonly getStmt: Statement<[string], ImportRow>;
  private readonly statusStmt: Statement;
  private readonly partStmt: Statement;
  private readonly partsStmt: Statement<[string], { part_number: number; etag: string; size_bytes: number }>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    // the first session recorded under a key stays (a replay of its creation answers the same one)
    this.openStmt = db.prepare(
      `INSERT INTO platform_image_imports (idempotency_key, app_id, version_id, image_import_id, file_sha256,
         size_bytes, part_size_bytes, part_count, status, created_at, updated_at)
       VALUES (@idempotencyKey, @appId, @versionId, @imageImportId, @fileSha256, @sizeBytes, @partSizeBytes,
         @partCount, @status, @now, @now)
       ON CONFLICT (idempotency_key) DO NOTHING`,
    );
    this.getStmt = db.prepare('SELECT * FROM platform_image_imports WHERE idempotency_key = ?');
    this.statusStmt = db.prepare(
      `UPDATE platform_image_imports SET status = @status, image_asset_id = coalesce(@imageAssetId, image_asset_id),
         digest = coalesce(@digest, digest), updated_at = @now WHERE idempotency_key = @idempotencyKey`,
    );
    this.partStmt = db.prepare(
      `INSERT INTO platform_image_import_parts (idempotency_key, part_number, etag, size_bytes, recorded_at)
       VALUES (@idempotencyKey, @partNumber, @etag, @sizeBytes, @now)
       ON CONFLICT (idempotency_key, part_number) DO UPDATE SET etag = excluded.etag,
         size_bytes = excluded.size_bytes, recorded_at = excluded.recorded_at`,
    );
    this.partsStmt = db.prepare(
      'SELECT part_number, etag, size_bytes FROM platform_image_import_parts WHERE idempotency_key = ? ORDER BY part_number',
    );
  }

  /** Records a session under its idempotency key (a key already recorded keeps its first session). */
  open(session: Omit<PlatformImageImport, 'imageAssetId' | 'digest'>): PlatformImageImport {
    this.openStmt.run({ ...session, now: this.now() });
    return this.get(session.idempotencyKey)!;
  }

  get(idempotencyKey: string): PlatformImageImport | undefined {
    const row = this.getStmt.get(idempotencyKey);
    return row ? toImport(row) : undefined;
  }

  setStatus(
    idempotencyKey: string,
    status: string,
    result: { imageAssetId?: string; digest?: string } = {},
  ): void {
    this.statusStmt.run({
      idempotencyKey,
      status,
      imageAssetId: result.imageAssetId ?? null,
      digest: result.digest ?? null,
      now: this.now(),
    });
  }

  /** Records a part the platform answered (the same part again replaces its ETag: the platform's latest). */
  recordPart(idempotencyKey: string, part: PlatformImagePart): void {
    this.partStmt.run({ idempotencyKey, ...part, now: this.now() });
  }

  parts(idempotencyKey: string): PlatformImagePart[] {
    return this.partsStmt
      .all(idempotencyKey)
      .map((r) => ({ partNumber: r.part_number, etag: r.etag, sizeBytes: r.size_bytes }));
  }
}
