import type { Migration } from './migration.js';

/**
 * Profiles (never secrets), settings, drafts and the discovery cache.
 *
 * Conventions for every table in the journal:
 * - `*_at` columns are INTEGER Unix epoch milliseconds (UTC); NULL means "not known / not yet".
 * - `*_json` columns hold JSON text and are CHECKed with `json_valid`.
 * - booleans are INTEGER 0/1 with a CHECK.
 */
export const migration001Initial: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE profiles (
        id                      TEXT PRIMARY KEY NOT NULL,
        name                    TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(trim(name)) > 0),
        kind                    TEXT NOT NULL CHECK (kind IN ('simulator', 'personal', 'debug')),
        -- Includes the /v1 prefix. NULL only for the embedded simulator (its port is chosen at start).
        base_url                TEXT CHECK (base_url IS NULL OR base_url LIKE 'http%://%'),
        -- Whether the secret store holds a key/token for this profile. The secret itself is never here.
        has_secret              INTEGER NOT NULL DEFAULT 0 CHECK (has_secret IN (0, 1)),
        -- Debug profiles: when the short-lived debug token expires (the token lives in the secret store).
        debug_token_expires_at  INTEGER,
        created_at              INTEGER NOT NULL,
        updated_at              INTEGER NOT NULL,
        CHECK (kind = 'simulator' OR base_url IS NOT NULL),
        CHECK (kind = 'debug' OR debug_token_expires_at IS NULL)
      ) STRICT;

      CREATE TABLE settings (
        key         TEXT PRIMARY KEY NOT NULL,
        value_json  TEXT NOT NULL CHECK (json_valid(value_json)),
        updated_at  INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE drafts (
        id          TEXT PRIMARY KEY NOT NULL,
        body_json   TEXT NOT NULL CHECK (json_valid(body_json)),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX drafts_by_updated ON drafts (updated_at DESC, id);

      -- Last successful discovery response per profile and resource ('services', 'models', 'audio/voices').
      CREATE TABLE discovery_cache (
        profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        resource    TEXT NOT NULL,
        fetched_at  INTEGER NOT NULL,
        body_json   TEXT NOT NULL CHECK (json_valid(body_json)),
        PRIMARY KEY (profile_id, resource)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
