import type { Migration } from './migration.js';

/** Local input files (hashed and probed once per content version) and their uploads per profile and model. */
export const migration002LocalFilesAndUploads: Migration = {
  version: 2,
  name: 'local-files-and-uploads',
  up(db) {
    db.exec(`
      -- One row per local path; (byte_size, modified_at) tell whether sha256 and probe are still current.
      CREATE TABLE local_files (
        id             INTEGER PRIMARY KEY,
        path           TEXT NOT NULL UNIQUE,
        sha256         TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        byte_size      INTEGER NOT NULL CHECK (byte_size >= 0),
        modified_at    INTEGER NOT NULL,
        detected_mime  TEXT,
        kind           TEXT CHECK (kind IS NULL OR kind IN ('image', 'audio', 'video', 'document')),
        probe_json     TEXT CHECK (probe_json IS NULL OR json_valid(probe_json)),
        hashed_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX local_files_by_sha256 ON local_files (sha256);

      -- A remote input asset: the same bytes, uploaded under one profile (identity) and model scope.
      -- Assets are never reused across profiles or models (the lookup always filters on both).
      CREATE TABLE uploads (
        id              INTEGER PRIMARY KEY,
        sha256          TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        byte_size       INTEGER NOT NULL CHECK (byte_size >= 0),
        profile_id      TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        model           TEXT NOT NULL,
        -- Multipart field the bytes were sent in ('file', 'image', 'video', 'audio'): the same .mov
        -- sent as 'audio' is a different asset from the one sent as 'video'.
        upload_field    TEXT NOT NULL CHECK (upload_field IN ('file', 'image', 'video', 'audio')),
        asset_id        TEXT NOT NULL,
        publication_id  TEXT,
        asset_kind      TEXT NOT NULL CHECK (asset_kind IN ('image', 'audio', 'video', 'document')),
        mime_type       TEXT NOT NULL,
        reused          INTEGER NOT NULL CHECK (reused IN (0, 1)),
        uploaded_at     INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        UNIQUE (profile_id, model, asset_id)
      ) STRICT;
      CREATE INDEX uploads_reusable ON uploads (profile_id, model, sha256, upload_field, expires_at);
      CREATE INDEX uploads_by_expiry ON uploads (expires_at);
    `);
  },
};
