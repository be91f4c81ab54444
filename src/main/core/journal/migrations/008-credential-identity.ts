import type { Migration } from './migration.js';

/**
 * Identity facts the journal needs to keep keys and assets apart (never a secret itself):
 * - `profiles.secret_backend`: the key store that holds the profile's key (`keytar` or
 *   `safe-storage`), so that a process that cannot reach it says so instead of looking elsewhere;
 *   NULL for a profile without a stored key, or one stored before this migration (recorded at the
 *   next successful read).
 * - `uploads.credential_fingerprint`: a one-way fingerprint of the credential an asset was uploaded
 *   under. Assets are reused only under the same credential; rows from before this migration have
 *   none and are never reused.
 */
export const migration008CredentialIdentity: Migration = {
  version: 8,
  name: 'credential-identity',
  up(db) {
    db.exec(`
      ALTER TABLE profiles ADD COLUMN secret_backend TEXT
        CHECK (secret_backend IS NULL OR secret_backend IN ('keytar', 'safe-storage'));
      ALTER TABLE uploads ADD COLUMN credential_fingerprint TEXT
        CHECK (credential_fingerprint IS NULL OR (length(credential_fingerprint) = 64
               AND credential_fingerprint NOT GLOB '*[^0-9a-f]*'));
      DROP INDEX uploads_reusable;
      CREATE INDEX uploads_reusable
        ON uploads (profile_id, model, credential_fingerprint, sha256, upload_field, expires_at);
    `);
  },
};
