import BetterSqlite3 from 'better-sqlite3';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/core/journal/database.js';
import {
  JOURNAL_BACKUPS_KEPT,
  JOURNAL_BACKUP_DIR,
  JournalBackupError,
  JournalCorruptError,
} from '../../../src/main/core/journal/journal-safety.js';
import { JournalTooNewError, runMigrations } from '../../../src/main/core/journal/migrator.js';
import { migrations } from '../../../src/main/core/journal/migrations/index.js';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { journalFromNewerVersion } from './helpers.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const folder = () => tempFolder('fw-journal-safety-');

/** A journal left at schema version 1 by an older Framewright, holding one profile. */
function oldJournal(file: string): void {
  const db = openDatabase(file);
  runMigrations(db, migrations.slice(0, 1));
  db.prepare(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p1', 'Mine', 'simulator', 0, 0)",
  ).run();
  db.close();
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('journal safety before migrations', () => {
  it('backs the journal up with VACUUM INTO before migrating it, into journal-backups/ beside it', () => {
    const dir = folder();
    const file = path.join(dir, 'journal.sqlite');
    oldJournal(file);
    const journal = openJournal({ path: file, now: () => Date.UTC(2026, 4, 1) });
    journal.close();

    expect(journal.backupPath).toBe(
      path.join(dir, JOURNAL_BACKUP_DIR, 'journal-v1-2026-05-01T00-00-00-000Z.sqlite'),
    );
    expect(statSync(journal.backupPath!).mode & 0o777).toBe(0o600);
    const backup = new BetterSqlite3(journal.backupPath!, { readonly: true });
    expect(backup.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
    expect(backup.prepare('SELECT name FROM profiles').all()).toEqual([{ name: 'Mine' }]);
    backup.close();

    // an up-to-date journal is not copied again
    const again = openJournal({ path: file });
    again.close();
    expect(again.backupPath).toBeUndefined();
    expect(readdirSync(path.join(dir, JOURNAL_BACKUP_DIR))).toHaveLength(1);
  });

  it(`keeps only the newest ${JOURNAL_BACKUPS_KEPT} backups`, () => {
    const dir = folder();
    for (let day = 1; day <= JOURNAL_BACKUPS_KEPT + 2; day++) {
      oldJournal(path.join(dir, `j${day}.sqlite`));
      const journal = openJournal({
        path: path.join(dir, `j${day}.sqlite`),
        now: () => Date.UTC(2026, 4, day),
      });
      journal.close();
    }
    expect(readdirSync(path.join(dir, JOURNAL_BACKUP_DIR)).sort()).toEqual([
      'journal-v1-2026-05-03T00-00-00-000Z.sqlite',
      'journal-v1-2026-05-04T00-00-00-000Z.sqlite',
      'journal-v1-2026-05-05T00-00-00-000Z.sqlite',
    ]);
  });

  it('migrates nothing when the backup cannot be written', () => {
    const dir = folder();
    const file = path.join(dir, 'journal.sqlite');
    oldJournal(file);
    writeFileSync(path.join(dir, JOURNAL_BACKUP_DIR), 'a file where the backup folder should be');
    const error = caught(() => openJournal({ path: file }));
    expect(error).toBeInstanceOf(JournalBackupError);
    expect((error as Error).message).toMatch(/before upgrading it.*The journal was not changed/s);
    const raw = new BetterSqlite3(file, { readonly: true });
    expect(raw.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
    raw.close();
  });

  it('moves a file that is not a database aside, never deleting it, and says where', () => {
    const dir = folder();
    const file = path.join(dir, 'journal.sqlite');
    const garbage = Buffer.from('this is not an SQLite database, it is garbage '.repeat(200));
    writeFileSync(file, garbage);
    const error = caught(() => openJournal({ path: file, now: () => Date.UTC(2026, 4, 1) }));
    expect(error).toBeInstanceOf(JournalCorruptError);
    const movedTo = (error as JournalCorruptError).movedTo;
    expect(movedTo).toBe(`${file}.corrupt-2026-05-01T00-00-00-000Z`);
    expect(readFileSync(movedTo)).toEqual(garbage);
    expect((error as Error).message).toContain(movedTo);
    expect((error as Error).message).toContain('framewright library reindex');
    expect(existsSync(file)).toBe(false);

    // the next start begins with a new journal
    const fresh = openJournal({ path: file });
    expect(fresh.schemaVersion).toBe(migrations.at(-1)!.version);
    fresh.close();
  });

  it('runs PRAGMA integrity_check before migrating, and moves a damaged journal aside', () => {
    const dir = folder();
    const file = path.join(dir, 'journal.sqlite');
    oldJournal(file);
    // damage the profiles table's root page behind SQLite's back (as a torn write or bad disk would)
    const raw = new BetterSqlite3(file);
    const root = raw
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'profiles'")
      .pluck()
      .get() as number;
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const bytes = readFileSync(file);
    bytes.fill(0xa5, (root - 1) * pageSize, (root - 1) * pageSize + 64);
    writeFileSync(file, bytes);

    const error = caught(() => openJournal({ path: file, now: () => Date.UTC(2026, 4, 2) }));
    expect(error).toBeInstanceOf(JournalCorruptError);
    expect((error as Error).message).toMatch(/is damaged \(.+\)\. It was moved aside, not deleted/);
    expect(existsSync((error as JournalCorruptError).movedTo)).toBe(true);
    expect(existsSync(file)).toBe(false);
    // nothing was migrated or backed up from a damaged journal
    expect(existsSync(path.join(dir, JOURNAL_BACKUP_DIR))).toBe(false);
  });

  it('refuses a journal from a newer Framewright without backing it up, moving or migrating it', () => {
    const dir = folder();
    const file = path.join(dir, 'journal.sqlite');
    journalFromNewerVersion(file);
    const bytes = readFileSync(file);
    expect(caught(() => openJournal({ path: file }))).toBeInstanceOf(JournalTooNewError);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['journal.sqlite']);
  });
});
