import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';

/** A fresh in-memory database migrated up to and including `version`. */
export function migratedTo(version: number): Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  runMigrations(db, migrations.slice(0, version));
  return db;
}

/** A sequence `sequenceId` whose shots are `shotIds` in order, each with its own empty draft `d-<shotId>`. */
export function sequenceWithShots(db: Database, sequenceId: string, shotIds: string[]): void {
  db.prepare("INSERT INTO sequences (id, name, created_at, updated_at) VALUES (?, 'Film', 0, 0)").run(
    sequenceId,
  );
  shotIds.forEach((shotId, position) => {
    db.prepare("INSERT INTO drafts (id, body_json, created_at, updated_at) VALUES (?, '{}', 0, 0)").run(
      `d-${shotId}`,
    );
    db.prepare(
      "INSERT INTO sequence_shots (id, sequence_id, position, draft_id, origin, created_at) VALUES (?, ?, ?, ?, 'new', 0)",
    ).run(shotId, sequenceId, position, `d-${shotId}`);
  });
}

/** One profile `p` and a job intent per id (key `k-<id>`), for the tables that refer to intents. */
export function withIntents(db: Database, ids: number[]): void {
  db.exec(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
  );
  const add = db.prepare(
    `INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
       created_at, updated_at) VALUES (?, ?, 'p', 'm', 'video_generation', '{}', 0, 0)`,
  );
  for (const id of ids) add.run(id, `k-${id}`);
}

/** The intents (see {@link withIntents}) and a succeeded video job for each of `ids` (job row = intent). */
export function withSucceededJobs(db: Database, ids: number[]): void {
  withIntents(db, ids);
  const add = db.prepare(
    `INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status, accepted_at, updated_at)
       VALUES (?, ?, 'p', 'm', 'video_generation', ?, 'r', 'succeeded', 0, 0)`,
  );
  for (const id of ids) add.run(id, id, `job-${id}`);
}

export function columns(
  db: Database,
  table: string,
): Record<string, { type: string; notnull: boolean; pk: boolean }> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as {
    name: string;
    type: string;
    notnull: number;
    pk: number;
  }[];
  return Object.fromEntries(
    rows.map((r) => [r.name, { type: r.type, notnull: r.notnull === 1, pk: r.pk > 0 }]),
  );
}

export function tables(db: Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[]
  ).filter((name) => !/^job_prompt_search_/.test(name));
}

export function indexColumns(db: Database, index: string): string[] {
  return (db.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((r) => r.name);
}

export function indexSql(db: Database, index: string): string | undefined {
  return (
    db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(index) as
      { sql: string } | undefined
  )?.sql;
}

export function foreignKeys(
  db: Database,
  table: string,
): { table: string; from: string; on_delete: string }[] {
  return (
    db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
      table: string;
      from: string;
      on_delete: string;
    }[]
  ).map(({ table: t, from, on_delete }) => ({ table: t, from, on_delete }));
}
