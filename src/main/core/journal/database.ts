import type { Database } from 'better-sqlite3';
import { chmodSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
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
 *   carries the jobId — go through {@link durably}, and the request waits for {@link whenDurable}:
 *   the -wal file's fsync that FULL would make inside `COMMIT`, made on libuv's thread pool instead,
 *   so that a team backend's event loop does not stop for a disk flush per job of every person.
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
 * Runs `fn` in an IMMEDIATE transaction for a write that must survive a power cut, not only a
 * process crash, and starts the flush that makes it so: await {@link whenDurable} before anything
 * leaves that counts on it (a create request, a billed call). Inside a caller's transaction it
 * joins it, and `whenDurable` after that transaction's commit covers both.
 */
export function durably<T>(db: Database, fn: () => T): T {
  const joined = db.inTransaction;
  const value = joined ? db.transaction(fn)() : db.transaction(fn).immediate();
  walFlushes(db).owed += 1;
  // a commit of its own is flushed at once, so the caller's await is short; a failure reaches
  // whoever awaits (a joined write waits for its caller's commit, and the caller's whenDurable)
  if (!joined) whenDurable(db).catch(() => undefined);
  return value;
}

/** What a connection's durable commits owe the disk: commits counted, and how many are flushed. */
interface WalFlushes {
  owed: number;
  flushed: number;
  running?: Promise<void>;
}

const flushesOf = new WeakMap<Database, WalFlushes>();

function walFlushes(db: Database): WalFlushes {
  let state = flushesOf.get(db);
  if (!state) flushesOf.set(db, (state = { owed: 0, flushed: 0 }));
  return state;
}

/**
 * Resolves once every {@link durably} commit made so far on `db` is on disk: the -wal file is
 * fdatasync'd on libuv's thread pool (what `synchronous = FULL` does inside `COMMIT`, on the event
 * loop). A commit a checkpoint has already copied is in the database file, which the checkpoint
 * synced. Flushes are shared: callers waiting together wait for one. A failed flush rejects its
 * waiters and the next call flushes again.
 */
export async function whenDurable(db: Database): Promise<void> {
  const state = walFlushes(db);
  const target = state.owed;
  while (state.flushed < target) {
    if (!state.running) {
      const covers = state.owed;
      state.running = flushWal(db.name)
        .then(() => {
          state.flushed = Math.max(state.flushed, covers);
        })
        .finally(() => {
          state.running = undefined;
        });
    }
    await state.running;
  }
}

/** fdatasync of the journal's -wal file (of the database file when there is no -wal). */
async function flushWal(file: string): Promise<void> {
  if (file === ':memory:' || file === '') return;
  let handle: FileHandle;
  try {
    handle = await open(`${file}-wal`, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    handle = await open(file, 'r');
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Runs `fn` in an IMMEDIATE transaction (or joins the current one via a savepoint). */
export function immediately<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}
