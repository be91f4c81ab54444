import type { Migration } from './migration.js';

/**
 * `framewright platform release` (issue 30): an image archive goes to the platform in parts
 * (application-platform-api.md, section E, "Image import order"). `platform_image_imports` keeps
 * each import session Framewright opened, under its stable idempotency key (derived from the
 * version and the archive's sha256), so a later run re-reads the same session rather than opening
 * another; `platform_image_import_parts` records each part's ETag and size once the platform has
 * answered it, so no recorded part is sent twice. Upload URLs are short-lived credentials: they are
 * never stored (a run reads the session again for fresh ones).
 */
export const migration015PlatformImageImports: Migration = {
  version: 15,
  name: 'platform-image-imports',
  up(db) {
    db.exec(`
      CREATE TABLE platform_image_imports (
        idempotency_key  TEXT PRIMARY KEY NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
        app_id           TEXT NOT NULL CHECK (length(app_id) BETWEEN 1 AND 128),
        version_id       TEXT NOT NULL CHECK (length(version_id) BETWEEN 1 AND 128),
        image_import_id  TEXT NOT NULL CHECK (length(image_import_id) BETWEEN 1 AND 128),
        file_sha256      TEXT NOT NULL CHECK (length(file_sha256) = 64),
        size_bytes       INTEGER NOT NULL CHECK (size_bytes > 0),
        part_size_bytes  INTEGER NOT NULL CHECK (part_size_bytes > 0),
        part_count       INTEGER NOT NULL CHECK (part_count > 0),
        status           TEXT NOT NULL,
        image_asset_id   TEXT,
        digest           TEXT,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE platform_image_import_parts (
        idempotency_key  TEXT NOT NULL REFERENCES platform_image_imports (idempotency_key) ON DELETE CASCADE,
        part_number      INTEGER NOT NULL CHECK (part_number >= 1),
        etag             TEXT NOT NULL CHECK (length(etag) BETWEEN 1 AND 200),
        size_bytes       INTEGER NOT NULL CHECK (size_bytes >= 0),
        recorded_at      INTEGER NOT NULL,
        PRIMARY KEY (idempotency_key, part_number)
      ) STRICT;
    `);
  },
};
