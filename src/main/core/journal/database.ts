import type { Database } from 'better-sqlite3';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { openSqlite } from './sqlite-native-binding.js';

export type { Database } from 'better-sqlite3';

/** How long a connection waits for another process's write lock (CLI and app share a journal). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens the SQLite file and sets the connection pragmas.
 *
 * - `journal_mode = WAL`: readers never block the writer and vice versa (the app and a CLI run can
 *   share one journal), and a commit is one sequential append to the -wal file.
 * - `synchronous = NORMAL`: in WAL mode this never corrupts the database and every committed
 *   transaction survives a process crash (SIGKILL, a renderer taking the app down): the commit is in
 *   the -wal file as soon as `COMMIT` returns. Only an OS crash or power cut can roll back the last
 *   few commits, and the fsync FULL would do on every poll update is wasted work. The few commits
 *   whose loss would lose money — an intent before its create request leaves, the acceptance that
 *   carries the jobId — go through {@link durably}, which switches that one commit to FULL.
 * - `foreign_keys = ON`: SQLite leaves it off by default; the schema relies on it (cascades,
 *   RESTRICT on profiles that own jobs).
 * - `busy_timeout`: wait for the other process's write lock instead of failing at once. Write
 *   transactions that read first are opened IMMEDIATE so they take the lock up front (a deferred
 *   transaction upgrading from read to write gets SQLITE_BUSY without waiting).
 */
export function openDatabase(file: string, options: { readonly?: boolean } = {}): Database {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = openSqlite(file, { readonly: options.readonly ?? false, timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!inMemory && !options.readonly) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`SQLite refused WAL mode for ${file} (got "${String(mode)}").`);
      // Prompts and paths are private: keep the file to its owner.
      chmodSync(file, 0o600);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (db.pragma('foreign_keys', { simple: true }) !== 1) {
      throw new Error('This SQLite build cannot enforce foreign keys.');
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Runs `fn` in an IMMEDIATE transaction whose commit is fsynced (`synchronous = FULL` for that
 * commit only), for writes that must survive a power cut, not only a process crash.
 */
export function durably<T>(db: Database, fn: () => T): T {
  // Inside a caller's transaction: join it; its commit is the one that counts.
  if (db.inTransaction) return db.transaction(fn)();
  db.pragma('synchronous = FULL');
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}

/** Runs `fn` in an IMMEDIATE transaction (or joins the current one via a savepoint). */
export function immediately<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}
