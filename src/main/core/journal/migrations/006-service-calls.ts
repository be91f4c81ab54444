import type { Migration } from './migration.js';

/**
 * Billed synchronous calls (embeddings, rerank, OCR, transcription): one row per call, committed
 * before the request leaves and completed when its answer (or failure) is read. Only summaries are
 * kept — counts, sizes, asset ids, a file's sha256 — never the inputs' text, never a secret.
 * A row left `sent` means the process stopped before the answer; these calls are not replayed.
 */
export const migration006ServiceCalls: Migration = {
  version: 6,
  name: 'service-calls',
  up(db) {
    db.exec(`
      CREATE TABLE service_calls (
        id                     INTEGER PRIMARY KEY,
        profile_id             TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        model                  TEXT NOT NULL,
        operation              TEXT NOT NULL
                                 CHECK (operation IN ('embeddings', 'rerank', 'ocr', 'transcription')),
        state                  TEXT NOT NULL CHECK (state IN ('sent', 'succeeded', 'failed', 'unknown')),
        request_summary_json   TEXT NOT NULL CHECK (json_valid(request_summary_json)),
        request_id             TEXT,
        status_code            INTEGER,
        error_code             TEXT,
        error_message          TEXT,
        response_summary_json  TEXT CHECK (response_summary_json IS NULL OR json_valid(response_summary_json)),
        usage_json             TEXT CHECK (usage_json IS NULL OR json_valid(usage_json)),
        started_at             INTEGER NOT NULL,
        finished_at            INTEGER
      ) STRICT;
      CREATE INDEX service_calls_by_profile ON service_calls (profile_id, id);
      CREATE INDEX service_calls_by_profile_operation ON service_calls (profile_id, operation, id);
    `);
  },
};
