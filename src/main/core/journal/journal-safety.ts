import type { Database } from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Where backups taken before migrations go: a folder beside the journal. */
export const JOURNAL_BACKUP_DIR = 'journal-backups';
/** How many backups are kept (the newest); older ones are removed when a new one is taken. */
export const JOURNAL_BACKUPS_KEPT = 3;

/** SQLite's answers for a file that is not (or no longer) a readable database. */
const CORRUPTION_CODES = new Set([
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT_VTAB',
  'SQLITE_CORRUPT_INDEX',
]);

/** The journal could not be read as a database; it was moved aside (never deleted). */
export class JournalCorruptError extends Error {
  constructor(
    readonly journalPath: string,
    readonly movedTo: string,
    readonly reason: string,
  ) {
    super(
      `The journal at ${journalPath} is damaged (${reason}). It was moved aside, not deleted, to ${movedTo}. ` +
        `The next start begins with a new journal; then \`framewright library reindex\` rebuilds the jobs ` +
        `and results from the library's framewright.json files.`,
    );
    this.name = 'JournalCorruptError';
  }
}

/** The backup before a migration could not be written, so nothing was migrated. */
export class JournalBackupError extends Error {
  constructor(journalPath: string, backupPath: string, cause: unknown) {
    super(
      `Could not back up the journal at ${journalPath} to ${backupPath} before upgrading it ` +
        `(${cause instanceof Error ? cause.message : String(cause)}). The journal was not changed.`,
      { cause },
    );
    this.name = 'JournalBackupError';
  }
}

/** True for better-sqlite3's errors that mean the file is damaged or not a database. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION_CODES.has(code);
}

/** `PRAGMA integrity_check`'s findings, empty when the journal is sound. */
export function integrityProblems(db: Database): string[] {
  const rows = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  const findings = rows.map((row) => row.integrity_check);
  return findings.length === 1 && findings[0] === 'ok' ? [] : findings;
}

const stamp = (now: number) => new Date(now).toISOString().replace(/[:.]/g, '-');

/**
 * Moves the (closed) journal and its -wal/-shm files to `<journal>.corrupt-<time>` beside it and
 * returns the new path of the database file. Nothing is deleted.
 */
export function moveJournalAside(journalPath: string, now: number): string {
  const aside = `${journalPath}.corrupt-${stamp(now)}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(journalPath + suffix)) renameSync(journalPath + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Copies the open journal to `<folder of journal>/journal-backups/journal-v<version>-<time>.sqlite`
 * with `VACUUM INTO` (a consistent snapshot, WAL included) and keeps the newest
 * {@link JOURNAL_BACKUPS_KEPT}. Returns the backup's path.
 */
export function backUpJournal(db: Database, journalPath: string, version: number, now: number): string {
  const folder = path.join(path.dirname(journalPath), JOURNAL_BACKUP_DIR);
  const backup = path.join(folder, `journal-v${version}-${stamp(now)}.sqlite`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    db.prepare('VACUUM INTO ?').run(backup);
    chmodSync(backup, 0o600);
  } catch (error) {
    try {
      rmSync(backup, { force: true });
    } catch {
      // nothing was written there
    }
    throw new JournalBackupError(journalPath, backup, error);
  }
  pruneBackups(folder);
  return backup;
}

function pruneBackups(folder: string): void {
  const backups = readdirSync(folder)
    .filter((name) => /^journal-v\d+-.+\.sqlite$/.test(name))
    .sort((a, b) => timeOf(b).localeCompare(timeOf(a)));
  for (const old of backups.slice(JOURNAL_BACKUPS_KEPT)) rmSync(path.join(folder, old), { force: true });
}

const timeOf = (name: string) => name.replace(/^journal-v\d+-/, '');
