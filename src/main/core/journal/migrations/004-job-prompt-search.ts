import type { Migration } from './migration.js';

/**
 * Full-text search over the prompts of job intents, for the library search box.
 *
 * FTS5 with the trigram tokenizer: matches any substring of 3+ characters, case-insensitively and
 * ignoring diacritics, in any script (the unicode61 tokenizer would treat a run of CJK text as one
 * word). A plain FTS5 table with its own copy of each prompt, kept in step with job_intents by
 * triggers (intent bodies are immutable, see 003); rowid = intent id. Queries shorter than 3 characters fall back to LIKE on the same table.
 */
export const migration004JobPromptSearch: Migration = {
  version: 4,
  name: 'job-prompt-search',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE job_prompt_search USING fts5 (
        prompt,
        tokenize = 'trigram remove_diacritics 1'
      );

      CREATE TRIGGER job_intents_search_insert AFTER INSERT ON job_intents
      WHEN json_type(NEW.canonical_body_json, '$.prompt') = 'text'
      BEGIN
        INSERT INTO job_prompt_search (rowid, prompt)
        VALUES (NEW.id, json_extract(NEW.canonical_body_json, '$.prompt'));
      END;

      CREATE TRIGGER job_intents_search_delete AFTER DELETE ON job_intents
      BEGIN
        DELETE FROM job_prompt_search WHERE rowid = OLD.id;
      END;

      -- Index the prompts of intents recorded before this migration.
      INSERT INTO job_prompt_search (rowid, prompt)
      SELECT id, json_extract(canonical_body_json, '$.prompt') FROM job_intents
      WHERE json_type(canonical_body_json, '$.prompt') = 'text';
    `);
  },
};
