import type { Database } from 'better-sqlite3';

/**
 * One schema step. Migrations are numbered from 1 without gaps, one per file
 * (`NNN-name.ts`), and never edited once released: a change is a new migration.
 */
export interface Migration {
  /** 1, 2, 3, … — the schema version this migration produces. */
  readonly version: number;
  /** Short kebab-case name, recorded in `schema_migrations` to detect divergent histories. */
  readonly name: string;
  /**
   * Set when `up` rebuilds a table (SQLite's "12-step" ALTER): the runner then turns
   * `foreign_keys` off around the transaction and runs `PRAGMA foreign_key_check` before commit.
   */
  readonly rebuildsTables?: boolean;
  /** Applies the step. Runs inside a transaction opened by the runner; must not open its own. */
  up(db: Database): void;
}
