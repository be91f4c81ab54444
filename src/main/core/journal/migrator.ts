import type { Database } from 'better-sqlite3';
import type { Migration } from './migrations/migration.js';

/** The journal was written by a newer Framewright than this one. */
export class JournalTooNewError extends Error {
  constructor(
    readonly journalVersion: number,
    readonly knownVersion: number,
    readonly journalPath: string,
  ) {
    super(
      `The journal at ${journalPath} has schema version ${journalVersion}, but this version of Framewright ` +
        `only knows up to version ${knownVersion}. It was written by a newer Framewright: update Framewright, ` +
        `or use a different data directory (--data-dir). The journal was not modified.`,
    );
    this.name = 'JournalTooNewError';
  }
}

/** The journal's migration history disagrees with this build's (a migration was renamed or reordered). */
export class JournalHistoryMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalHistoryMismatchError';
  }
}

export interface MigrationResult {
  /** Schema version before, 0 for a new journal. */
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly applied: readonly number[];
}

/**
 * Checks that migrations are numbered from 1 in increasing order without duplicates. A number may be
 * missing while it is reserved for work on another branch; a journal that lacks it gets it later.
 */
export function assertMigrationSequence(list: readonly Migration[]): void {
  list.forEach((m, index) => {
    const previous = index === 0 ? 0 : list[index - 1]!.version;
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(
        `Migrations must be numbered from 1 in increasing order; found version ${m.version} ("${m.name}") at position ${index + 1}.`,
      );
    }
  });
}

interface AppliedRow {
  version: number;
  name: string;
}

function ensureMigrationsTable(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version     INTEGER PRIMARY KEY NOT NULL,
      name        TEXT NOT NULL,
      applied_at  INTEGER NOT NULL
    ) STRICT
  `);
}

function readApplied(db: Database): AppliedRow[] {
  return db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as AppliedRow[];
}

/** Highest applied version, 0 when none (or when the journal is empty). */
export function currentSchemaVersion(db: Database): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!table) return 0;
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

function checkHistory(applied: AppliedRow[], list: readonly Migration[], journalPath: string): void {
  const known = list.at(-1)?.version ?? 0;
  const newest = applied.at(-1)?.version ?? 0;
  if (newest > known) throw new JournalTooNewError(newest, known, journalPath);
  for (const row of applied) {
    const expected = list.find((m) => m.version === row.version);
    if (!expected || expected.name !== row.name) {
      throw new JournalHistoryMismatchError(
        `The journal at ${journalPath} records migration ${row.version} as "${row.name}", but this build's ` +
          `migration ${row.version} is "${expected?.name ?? '(none)'}". Refusing to guess; the journal was not modified.`,
      );
    }
  }
}

/**
 * Applies every pending migration, each in its own IMMEDIATE transaction together with its
 * `schema_migrations` row, so a crash leaves the journal at a whole version. The applied versions
 * are re-read inside each transaction, so two processes opening the same journal at once do not
 * apply a step twice. Refuses (without writing) a journal newer than `list`.
 */
export function runMigrations(
  db: Database,
  list: readonly Migration[],
  options: { journalPath?: string; now?: () => number } = {},
): MigrationResult {
  assertMigrationSequence(list);
  const journalPath = options.journalPath ?? db.name;
  const now = options.now ?? Date.now;

  // Refuse a newer journal before writing anything, even the bookkeeping table.
  const fromVersion = currentSchemaVersion(db);
  if (fromVersion > 0) checkHistory(readApplied(db), list, journalPath);
  ensureMigrationsTable(db);

  const applied: number[] = [];
  const before = new Set(fromVersion > 0 ? readApplied(db).map((r) => r.version) : []);
  for (const migration of list) {
    if (before.has(migration.version)) continue;
    const step = db.transaction(() => {
      const rows = readApplied(db);
      checkHistory(rows, list, journalPath);
      if (rows.some((r) => r.version === migration.version)) return false; // another process did it
      migration.up(db);
      if (migration.rebuildsTables) {
        const violations = db.prepare('PRAGMA foreign_key_check').all();
        if (violations.length > 0) {
          throw new Error(
            `Migration ${migration.version} ("${migration.name}") left ${violations.length} foreign key violation(s).`,
          );
        }
      }
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        now(),
      );
      return true;
    });
    // foreign_keys cannot change inside a transaction; a table rebuild needs it off.
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      if (step.immediate()) applied.push(migration.version);
    } catch (error) {
      if (error instanceof JournalTooNewError || error instanceof JournalHistoryMismatchError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Migration ${migration.version} ("${migration.name}") of the journal at ${journalPath} failed and was ` +
          `rolled back: ${reason}`,
        { cause: error },
      );
    } finally {
      if (migration.rebuildsTables) db.pragma('foreign_keys = ON');
    }
  }
  return { fromVersion, toVersion: currentSchemaVersion(db), applied };
}
