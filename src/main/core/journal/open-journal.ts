import type { Database } from 'better-sqlite3';
import { ConversationsRepository } from './conversations-repository.js';
import { openDatabase } from './database.js';
import { DiscoveryCacheRepository } from './discovery-cache-repository.js';
import { DraftsRepository } from './drafts-repository.js';
import { JobsRepository } from './jobs-repository.js';
import { LocalFilesRepository } from './local-files-repository.js';
import { migrations as allMigrations } from './migrations/index.js';
import type { Migration } from './migrations/index.js';
import { runMigrations } from './migrator.js';
import type { MigrationResult } from './migrator.js';
import { OutputsRepository } from './outputs-repository.js';
import { ProfilesRepository } from './profiles-repository.js';
import { PromptOptimizationsRepository } from './prompt-optimizations-repository.js';
import { ServiceCallsRepository } from './service-calls-repository.js';
import { SettingsRepository } from './settings-repository.js';
import { UploadsRepository } from './uploads-repository.js';

export interface OpenJournalOptions {
  /** The SQLite file (created with its folder), or ':memory:' for tests. */
  readonly path: string;
  /** Clock (epoch ms), injectable for tests. */
  readonly now?: () => number;
  /** Migrations to apply; defaults to all this build knows. */
  readonly migrations?: readonly Migration[];
}

/** The opened, migrated journal and its typed repositories. No SQL lives outside this folder. */
export interface Journal {
  readonly path: string;
  readonly schemaVersion: number;
  readonly migration: MigrationResult;
  readonly profiles: ProfilesRepository;
  readonly settings: SettingsRepository;
  readonly drafts: DraftsRepository;
  readonly discovery: DiscoveryCacheRepository;
  readonly localFiles: LocalFilesRepository;
  readonly uploads: UploadsRepository;
  readonly optimizations: PromptOptimizationsRepository;
  readonly jobs: JobsRepository;
  readonly outputs: OutputsRepository;
  readonly conversations: ConversationsRepository;
  readonly serviceCalls: ServiceCallsRepository;
  /**
   * Runs `fn` in one IMMEDIATE transaction (repository calls inside join it). Its commit is a
   * NORMAL one: do not wrap `recordIntent`/`markAccepted` in it, they make their own durable commit.
   */
  transaction<T>(fn: () => T): T;
  close(): void;
  /** The connection, for the journal's own tests and maintenance tools only. */
  readonly database: Database;
}

/**
 * Opens (creating if needed) the journal at `path`, applies pending migrations and returns the
 * repositories. Throws JournalTooNewError, without modifying the file, when the journal was written
 * by a newer Framewright.
 */
export function openJournal(options: OpenJournalOptions): Journal {
  const db = openDatabase(options.path);
  try {
    const now = options.now ?? Date.now;
    const migration = runMigrations(db, options.migrations ?? allMigrations, {
      journalPath: options.path,
      now,
    });
    const outputs = new OutputsRepository(db, now);
    return {
      path: options.path,
      schemaVersion: migration.toVersion,
      migration,
      profiles: new ProfilesRepository(db, now),
      settings: new SettingsRepository(db, now),
      drafts: new DraftsRepository(db, now),
      discovery: new DiscoveryCacheRepository(db, now),
      localFiles: new LocalFilesRepository(db, now),
      uploads: new UploadsRepository(db, now),
      optimizations: new PromptOptimizationsRepository(db, now),
      jobs: new JobsRepository(db, outputs, now),
      outputs,
      conversations: new ConversationsRepository(db, now),
      serviceCalls: new ServiceCallsRepository(db, now),
      transaction: (fn) => db.transaction(fn).immediate(),
      close: () => {
        if (!db.open) return;
        try {
          db.pragma('optimize');
        } finally {
          db.close();
        }
      },
      database: db,
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
