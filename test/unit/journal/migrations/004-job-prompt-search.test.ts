import { describe, expect, it } from 'vitest';
import { migration004JobPromptSearch } from '../../../../src/main/core/journal/migrations/004-job-prompt-search.js';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migratedTo } from './schema-helpers.js';

function addIntent(db: ReturnType<typeof migratedTo>, id: number, body: unknown) {
  db.prepare(
    `INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, created_at, updated_at)
     VALUES (?, ?, 'p', 'm', 'video_generation', ?, 0, 0)`,
  ).run(id, `key-${id}`, JSON.stringify(body));
}

const search = (db: ReturnType<typeof migratedTo>, match: string) =>
  db
    .prepare('SELECT rowid FROM job_prompt_search WHERE job_prompt_search MATCH ? ORDER BY rowid')
    .pluck()
    .all(match);

describe('migration 004-job-prompt-search', () => {
  it('is version 4', () => {
    expect(migration004JobPromptSearch.version).toBe(4);
  });

  it('creates an FTS5 trigram index and indexes prompts recorded before it', () => {
    const db = migratedTo(3);
    db.prepare(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    ).run();
    addIntent(db, 1, { prompt: 'A lighthouse at dusk' });
    runMigrations(db, migrations.slice(0, 4));
    const sql = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'job_prompt_search'")
      .pluck()
      .get() as string;
    expect(sql).toMatch(/USING fts5/i);
    expect(sql).toMatch(/trigram/);
    expect(search(db, '"lighthouse"')).toEqual([1]);
  });

  it('follows inserts and deletes, matching substrings in any case and script', () => {
    const db = migratedTo(4);
    db.prepare(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    ).run();
    addIntent(db, 1, { prompt: 'Une café Crème on a RAINY street' });
    addIntent(db, 2, { prompt: '雨の中を歩く猫' });
    addIntent(db, 3, { model: 'no prompt here' });
    expect(search(db, '"rainy"')).toEqual([1]);
    expect(search(db, '"cafe creme"')).toEqual([1]);
    expect(search(db, '"中を歩"')).toEqual([2]);
    db.prepare('DELETE FROM job_intents WHERE id = 2').run();
    expect(search(db, '"中を歩"')).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM job_prompt_search').pluck().get()).toBe(1);
    expect(search(db, '"rainy"')).toEqual([1]);
  });
});
