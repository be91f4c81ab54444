import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { openSqlite } from '../journal/sqlite-native-binding.js';

/** The folder of the presence files, under a data folder (or a person's workspace). */
export const PRESENCE_DIR = 'processes';

/**
 * A process's presence on a data folder: a small SQLite file under `<dataDir>/processes/` on which
 * the process holds an exclusive lock for as long as it runs. The operating system drops that lock
 * when the process ends, however it ends (SIGKILL, a crash, a power-off of the session): a killed
 * process that its parent has not reaped yet (a zombie, which `kill(pid, 0)` still reports) holds no
 * lock, and a pid reused by an unrelated process never holds this file's lock. So another process
 * can tell a dead owner of a job lease from a live one without trusting a pid.
 *
 * The lock is SQLite's own (POSIX advisory locks on Unix, LockFileEx on Windows), taken with
 * `BEGIN EXCLUSIVE` and never committed; nothing is ever written to the file.
 */
export class ProcessPresence {
  private constructor(
    readonly file: string,
    private db: Database | undefined,
  ) {}

  /** Takes this process's presence for `ownerId` (one file per owner id). */
  static claim(dir: string, ownerId: string): ProcessPresence {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = presenceFile(dir, ownerId);
    const db = openSqlite(file, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      throw error;
    }
    return new ProcessPresence(file, db);
  }

  /** Gives the presence up (the engine stopped): the lock is dropped and the file removed. */
  release(): void {
    const db = this.db;
    if (!db) return;
    this.db = undefined;
    try {
      db.exec('ROLLBACK');
    } catch {
      // nothing was begun (a closed connection)
    }
    db.close();
    rmSync(this.file, { force: true });
  }
}

/** One file per owner id; the id (host:pid:uuid) is hashed into a safe file name. */
export function presenceFile(dir: string, ownerId: string): string {
  return path.join(dir, `${createHash('sha256').update(ownerId).digest('hex').slice(0, 32)}.lock`);
}

/**
 * Whether the owner of a presence still runs: `alive` while its lock is held, `gone` when the file
 * is there and nobody holds its lock (the owner ended without releasing it; the file is removed),
 * `unknown` when there is no file (an owner from before presences existed, or one that released
 * it) or the file cannot be read: the caller falls back to another signal.
 */
export function presenceOf(dir: string, ownerId: string): 'alive' | 'gone' | 'unknown' {
  const file = presenceFile(dir, ownerId);
  if (!existsSync(file)) return 'unknown';
  let db: Database | undefined;
  try {
    db = openSqlite(file, { timeout: 0, fileMustExist: true });
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY' ? 'alive' : 'unknown';
  } finally {
    db?.close();
  }
  rmSync(file, { force: true });
  return 'gone';
}
