import type { Migration } from './migration.js';

/**
 * Prompt optimizations, job intents, accepted jobs and their outputs.
 *
 * The intent is the business decision "generate this", committed (with its idempotency key and the
 * exact canonical body that will be sent) before any create request leaves. A job row exists only
 * once the service has accepted the intent and returned a jobId; it is written in the same
 * transaction that marks the intent accepted.
 */
export const migration003Jobs: Migration = {
  version: 3,
  name: 'jobs',
  up(db) {
    db.exec(`
      CREATE TABLE prompt_optimizations (
        -- Equals the Idempotency-Key header (spec: 8..128 chars of [A-Za-z0-9._:-]).
        client_request_id    TEXT PRIMARY KEY NOT NULL
                             CHECK (length(client_request_id) BETWEEN 8 AND 128
                                    AND client_request_id NOT GLOB '*[^A-Za-z0-9._:-]*'),
        profile_id           TEXT NOT NULL REFERENCES profiles (id) ON DELETE RESTRICT,
        model                TEXT NOT NULL,
        generation_mode      TEXT NOT NULL,
        draft_id             TEXT,
        -- The exact request body that is sent, and replayed byte for byte on an unknown outcome.
        canonical_body_json  TEXT NOT NULL CHECK (json_valid(canonical_body_json)),
        -- pending: committed, request may or may not have left; unknown: sent, outcome not read
        -- (replay); succeeded / failed: outcome known; abandoned: replays given up.
        state                TEXT NOT NULL DEFAULT 'pending'
                             CHECK (state IN ('pending', 'unknown', 'succeeded', 'failed', 'abandoned')),
        attempt_count        INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
        last_attempt_at      INTEGER,
        request_id           TEXT,
        optimization_id      TEXT,
        optimized_prompt     TEXT,
        expires_at           INTEGER,
        response_json        TEXT CHECK (response_json IS NULL OR json_valid(response_json)),
        error_code           TEXT,
        error_message        TEXT,
        status_code          INTEGER,
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL,
        CHECK (state <> 'succeeded' OR (optimized_prompt IS NOT NULL AND response_json IS NOT NULL))
      ) STRICT;
      -- Listing is keyset-paginated on the implicit rowid (insertion order).
      CREATE INDEX prompt_optimizations_by_profile ON prompt_optimizations (profile_id);
      CREATE INDEX prompt_optimizations_unfinished ON prompt_optimizations (created_at)
        WHERE state IN ('pending', 'unknown');

      CREATE TABLE job_intents (
        id                   INTEGER PRIMARY KEY,
        idempotency_key      TEXT NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 255),
        profile_id           TEXT NOT NULL REFERENCES profiles (id) ON DELETE RESTRICT,
        model                TEXT NOT NULL,
        service_kind         TEXT NOT NULL,
        draft_id             TEXT,
        optimization_client_request_id TEXT
                             REFERENCES prompt_optimizations (client_request_id) ON DELETE SET NULL,
        -- The exact create body, replayed byte for byte with the same key on an unknown outcome.
        canonical_body_json  TEXT NOT NULL CHECK (json_valid(canonical_body_json)),
        -- pending_create: committed, request may or may not have left; unknown: sent, no answer read
        -- (replay same key + body); accepted: a jobs row exists; rejected: definitive error answer;
        -- abandoned: replays given up (bounded), kept for the record.
        state                TEXT NOT NULL DEFAULT 'pending_create'
                             CHECK (state IN ('pending_create', 'unknown', 'accepted', 'rejected', 'abandoned')),
        attempt_count        INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
        last_attempt_at      INTEGER,
        -- Set when rejected (PublicError) or when the last attempt failed without an answer.
        request_id           TEXT,
        error_code           TEXT,
        error_message        TEXT,
        status_code          INTEGER,
        retryable            INTEGER CHECK (retryable IS NULL OR retryable IN (0, 1)),
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL
      ) STRICT;
      -- Replays must send the same key and body under the same identity: never rewrite them.
      CREATE TRIGGER job_intents_immutable BEFORE UPDATE OF idempotency_key, profile_id, model, canonical_body_json
      ON job_intents
      BEGIN
        SELECT RAISE(ABORT, 'a job intent''s key, profile, model and body never change');
      END;
      CREATE TRIGGER prompt_optimizations_immutable
      BEFORE UPDATE OF client_request_id, profile_id, model, canonical_body_json ON prompt_optimizations
      BEGIN
        SELECT RAISE(ABORT, 'a prompt optimization''s key, profile, model and body never change');
      END;
      CREATE INDEX job_intents_unfinished ON job_intents (id) WHERE state IN ('pending_create', 'unknown');
      CREATE INDEX job_intents_by_draft ON job_intents (draft_id) WHERE draft_id IS NOT NULL;
      CREATE INDEX job_intents_by_profile ON job_intents (profile_id);
      CREATE INDEX job_intents_by_optimization ON job_intents (optimization_client_request_id)
        WHERE optimization_client_request_id IS NOT NULL;

      CREATE TABLE jobs (
        id                     INTEGER PRIMARY KEY,
        intent_id              INTEGER NOT NULL UNIQUE REFERENCES job_intents (id) ON DELETE RESTRICT,
        profile_id             TEXT NOT NULL REFERENCES profiles (id) ON DELETE RESTRICT,
        model                  TEXT NOT NULL,
        service_kind           TEXT NOT NULL,
        job_id                 TEXT NOT NULL,
        request_id             TEXT NOT NULL,
        -- Absolute poll URL exactly as returned; NULL only for legacy responses (then /jobs/{jobId}).
        job_url                TEXT,
        status                 TEXT NOT NULL
                               CHECK (status IN ('queued', 'running', 'succeeded', 'failed',
                                                 'cancel_requested', 'canceled')),
        stage                  TEXT,
        stage_message          TEXT,
        server_created_at      INTEGER,
        started_at             INTEGER,
        completed_at           INTEGER,
        elapsed_seconds        REAL CHECK (elapsed_seconds IS NULL OR elapsed_seconds >= 0),
        queued_seconds         REAL CHECK (queued_seconds IS NULL OR queued_seconds >= 0),
        running_seconds        REAL CHECK (running_seconds IS NULL OR running_seconds >= 0),
        refresh_after_seconds  INTEGER CHECK (refresh_after_seconds IS NULL OR refresh_after_seconds >= 0),
        retry_after_seconds    INTEGER CHECK (retry_after_seconds IS NULL OR retry_after_seconds >= 0),
        next_poll_at           INTEGER,
        last_polled_at         INTEGER,
        poll_count             INTEGER NOT NULL DEFAULT 0 CHECK (poll_count >= 0),
        effective_spec_json    TEXT CHECK (effective_spec_json IS NULL OR json_valid(effective_spec_json)),
        error_code             TEXT,
        error_message          TEXT,
        status_code            INTEGER,
        -- Failed jobs: 0 forbids any automatic re-creation.
        retryable              INTEGER CHECK (retryable IS NULL OR retryable IN (0, 1)),
        -- The last job body read (creation or poll), additional properties included, for diagnosis.
        last_body_json         TEXT CHECK (last_body_json IS NULL OR json_valid(last_body_json)),
        accepted_at            INTEGER NOT NULL,
        updated_at             INTEGER NOT NULL,
        UNIQUE (profile_id, job_id)
      ) STRICT;
      -- Library listing, newest first (keyset on id), optionally by status and/or profile. jobs_by_status
      -- also serves resume: the in-progress statuses are a few rows of it at any library size.
      CREATE INDEX jobs_by_status ON jobs (status, id);
      CREATE INDEX jobs_by_profile ON jobs (profile_id, id);
      CREATE INDEX jobs_by_profile_status ON jobs (profile_id, status, id);

      CREATE TABLE outputs (
        id                  INTEGER PRIMARY KEY,
        job_row_id          INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        -- Position in the job's outputs[] (or legacy assets[] when outputs is absent).
        position            INTEGER NOT NULL CHECK (position >= 0),
        source              TEXT NOT NULL CHECK (source IN ('outputs', 'assets')),
        asset_id            TEXT NOT NULL,
        content_url         TEXT,
        -- What the service announced (verified against after download when present).
        expected_sha256     TEXT CHECK (expected_sha256 IS NULL OR length(expected_sha256) = 64),
        expected_byte_size  INTEGER CHECK (expected_byte_size IS NULL OR expected_byte_size >= 0),
        expected_mime_type  TEXT,
        kind                TEXT,
        -- pending: to download (again); downloading: a temporary file may exist at temp_path;
        -- verified: local_path holds the checked bytes; failed: given up (bounded re-reads).
        download_state      TEXT NOT NULL DEFAULT 'pending'
                            CHECK (download_state IN ('pending', 'downloading', 'verified', 'failed')),
        temp_path           TEXT,
        local_path          TEXT,
        sha256              TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
        byte_size           INTEGER CHECK (byte_size IS NULL OR byte_size >= 0),
        mime_type           TEXT,
        verified_at         INTEGER,
        attempt_count       INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
        last_error          TEXT,
        created_at          INTEGER NOT NULL,
        updated_at          INTEGER NOT NULL,
        UNIQUE (job_row_id, position),
        CHECK (download_state <> 'verified'
               OR (local_path IS NOT NULL AND sha256 IS NOT NULL AND byte_size IS NOT NULL AND verified_at IS NOT NULL))
      ) STRICT;
      CREATE INDEX outputs_unverified ON outputs (job_row_id) WHERE download_state IN ('pending', 'downloading');
      CREATE INDEX outputs_by_asset ON outputs (asset_id);
    `);
  },
};
