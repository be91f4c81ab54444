import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { statSync } from 'node:fs';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import {
  JournalTooNewError,
  JournalHistoryMismatchError,
  runMigrations,
} from '../../../src/main/core/journal/migrator.js';
import { openDatabase } from '../../../src/main/core/journal/database.js';
import { migrations } from '../../../src/main/core/journal/migrations/index.js';
import { tempJournal } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** The newest schema version this build knows (numbers reserved by other branches may be missing). */
const LATEST = migrations.at(-1)!.version;

describe('openJournal', () => {
  it('opens in WAL mode with foreign keys, NORMAL sync and a busy timeout, owner-only', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    const db = t.journal.database;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(statSync(t.file).mode & 0o777).toBe(0o600);
  });

  it('applies every migration once and records them', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    expect(t.journal.schemaVersion).toBe(LATEST);
    const rows = t.journal.database
      .prepare('SELECT version, name FROM schema_migrations ORDER BY version')
      .all();
    expect(rows).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
    t.journal.close();
    const again = openJournal({ path: t.file });
    expect(again.migration.applied).toEqual([]);
    expect(again.migration.fromVersion).toBe(LATEST);
    again.close();
  });

  it('upgrades a journal from an older version, keeping its data', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    t.journal.close();
    // A journal at version 1 with a profile.
    const old = openDatabase(t.file + '.old');
    runMigrations(old, migrations.slice(0, 1));
    old
      .prepare(
        "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p1', 'Mine', 'simulator', 0, 0)",
      )
      .run();
    old.close();
    const upgraded = openJournal({ path: t.file + '.old' });
    expect(upgraded.migration.applied).toEqual(migrations.slice(1).map((m) => m.version));
    expect(upgraded.profiles.get('p1')?.name).toBe('Mine');
    upgraded.close();
  });

  it('refuses a journal written by a newer Framewright, without modifying it', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    t.journal.close();
    const raw = new BetterSqlite3(t.file);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)')
      .run(99, 'from-the-future');
    raw.close();
    const before = statSync(t.file).mtimeMs;
    let error: unknown;
    try {
      openJournal({ path: t.file });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JournalTooNewError);
    expect((error as Error).message).toMatch(
      new RegExp(`schema version 99.*only knows up to version ${LATEST}.*update Framewright`, 's'),
    );
    expect(statSync(t.file).mtimeMs).toBe(before);
  });

  it('refuses a journal whose history names a migration differently', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    t.journal.close();
    const raw = new BetterSqlite3(t.file);
    raw.prepare("UPDATE schema_migrations SET name = 'something-else' WHERE version = 2").run();
    raw.close();
    expect(() => openJournal({ path: t.file })).toThrow(JournalHistoryMismatchError);
  });

  it('applies a migration whose number was reserved by another branch when it arrives later', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    t.journal.close();
    const late = {
      version: LATEST + 1,
      name: 'late',
      up(db: BetterSqlite3.Database) {
        db.exec('CREATE TABLE late_table (x INTEGER)');
      },
    };
    const newest = { version: LATEST + 2, name: 'newest', up: () => undefined };
    openJournal({ path: t.file, migrations: [...migrations, newest] }).close();
    const merged = openJournal({ path: t.file, migrations: [...migrations, late, newest] });
    expect(merged.migration.applied).toEqual([LATEST + 1]);
    expect(merged.database.prepare("SELECT name FROM sqlite_master WHERE name = 'late_table'").get()).toEqual(
      {
        name: 'late_table',
      },
    );
    merged.close();
    expect(() => openJournal({ path: t.file, migrations: [...migrations, newest, late] })).toThrow(
      /increasing order/,
    );
  });

  it('rolls back a failing migration as a whole and names it', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    const broken = [
      ...migrations,
      {
        version: LATEST + 1,
        name: 'broken',
        up(db: BetterSqlite3.Database) {
          db.exec('CREATE TABLE half_done (x INTEGER)');
          db.exec('INSERT INTO no_such_table VALUES (1)');
        },
      },
    ];
    t.journal.close();
    expect(() => openJournal({ path: t.file, migrations: broken })).toThrow(
      new RegExp(`Migration ${LATEST + 1} \\("broken"\\).*rolled back`),
    );
    const raw = new BetterSqlite3(t.file);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
    expect(raw.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({
      v: LATEST,
    });
    raw.close();
  });

  it('uses a bundled SQLite with FTS5', () => {
    const t = tempJournal();
    cleanup = t.cleanup;
    const options = t.journal.database.prepare('PRAGMA compile_options').pluck().all() as string[];
    expect(options).toContain('ENABLE_FTS5');
  });
});
