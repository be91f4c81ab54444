import type { Database } from 'better-sqlite3';
import { ConversationsRepository } from './conversations-repository.js';
import { openDatabase, whenDurable } from './database.js';
import { DiscoveryCacheRepository } from './discovery-cache-repository.js';
import { DraftsRepository } from './drafts-repository.js';
import { EventCursorsRepository } from './event-cursors-repository.js';
import { JobsRepository } from './jobs-repository.js';
import { LocalFilesRepository } from './local-files-repository.js';
import { migrations as allMigrations } from './migrations/index.js';
import type { Migration } from './migrations/index.js';
import { currentSchemaVersion, runMigrations } from './migrator.js';
import type { MigrationResult } from './migrator.js';
import { OutputsRepository } from './outputs-repository.js';
import { ProfilesRepository } from './profiles-repository.js';
import { PlatformImageImportsRepository } from './platform-image-imports-repository.js';
import { ProjectsRepository } from './projects-repository.js';
import { SequencesRepository } from './sequences-repository.js';
import { DeliveriesRepository } from './deliveries-repository.js';
import { StoryboardLinksRepository } from './storyboard-links-repository.js';
import { PromptOptimizationsRepository } from './prompt-optimizations-repository.js';
import {
  JournalCorruptError,
  backUpJournal,
  integrityProblems,
  isCorruptionError,
  moveJournalAside,
} from './journal-safety.js';
import { ServiceCallsRepository } from './service-calls-repository.js';
import { SettingsRepository } from './settings-repository.js';
import { SoundtracksRepository } from './soundtracks-repository.js';
import { UploadsRepository } from './uploads-repository.js';
import { VariationsRepository } from './variations-repository.js';
import { MarksRepository } from './marks-repository.js';
import { NotesRepository } from './notes-repository.js';
import { CollectionsRepository } from './collections-repository.js';

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
  /** The copy taken before this open's migrations (`journal-backups/` beside the journal), if any ran. */
  readonly backupPath: string | undefined;
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
  /** The last acknowledged cursor of the platform runtime's events stream (migration 010). */
  readonly eventCursors: EventCursorsRepository;
  /** Projects a creator files work under (migration 011). */
  readonly projects: ProjectsRepository;
  readonly sequences: SequencesRepository;
  /** The deliveries of sequences in their formats (migration 020). */
  readonly deliveries: DeliveriesRepository;
  /** The variation group of job intents, "Generate ×N" (migration 014). */
  readonly variations: VariationsRepository;
  /** The marks of library results: pick or reject, stars, a colour label (migration 021). */
  readonly marks: MarksRepository;
  /** Notes pinned to a time of a result, with an optional rectangle on its frame (migration 022). */
  readonly notes: NotesRepository;
  /** Named, hand-ordered sets of library results (migration 023). */
  readonly collections: CollectionsRepository;
  /** The image imports of `framewright platform release` and their recorded parts (migration 015). */
  readonly platformImageImports: PlatformImageImportsRepository;
  /** Sequences imported from a Storyboard Helper board, and each shot's panel (migration 017). */
  readonly storyboardLinks: StoryboardLinksRepository;
  /** A sequence's sound track: music bed, voice-over lines, gains and duck amount (migration 019). */
  readonly soundtracks: SoundtracksRepository;
  /**
   * Runs `fn` in one IMMEDIATE transaction (repository calls inside join it). Its commit is a
   * NORMAL one; a durable write inside it (`recordIntent`, `markAccepted`) is flushed by `durable()`
   * after it.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Resolves once every durable write so far (an intent, an acceptance, an optimization or a billed
   * call recorded before its request) is on disk; await it before the request that counts on it
   * leaves (`database.ts`, `whenDurable`).
   */
  durable(): Promise<void>;
  close(): void;
  /** The connection, for the journal's own tests and maintenance tools only. */
  readonly database: Database;
}

/**
 * Opens (creating if needed) the journal at `path`, and when migrations are pending checks and
 * backs it up first, applies them and returns the repositories.
 *
 * - A file SQLite reports as damaged or not a database while opening it, or one that
 *   `PRAGMA integrity_check` (run before migrations) finds damaged, is moved aside to
 *   `<path>.corrupt-<time>` (never deleted) and JournalCorruptError says where.
 * - A journal written by a newer Framewright is refused with JournalTooNewError, unmodified.
 * - Before the first pending migration of an existing journal, it is copied with `VACUUM INTO` to
 *   `journal-backups/` beside it (the newest few kept); if that copy fails nothing is migrated.
 */
export function openJournal(options: OpenJournalOptions): Journal {
  const now = options.now ?? Date.now;
  const list = options.migrations ?? allMigrations;
  const onDisk = options.path !== ':memory:' && options.path !== '';
  const moveAside = (reason: string): JournalCorruptError =>
    new JournalCorruptError(options.path, moveJournalAside(options.path, now()), reason);

  let db: Database;
  try {
    db = openDatabase(options.path);
  } catch (error) {
    if (onDisk && isCorruptionError(error)) throw moveAside((error as Error).message);
    throw error;
  }
  try {
    let backupPath: string | undefined;
    const fromVersion = onDisk ? currentSchemaVersion(db) : 0;
    if (fromVersion > 0 && fromVersion < (list.at(-1)?.version ?? 0)) {
      // a full check costs about 1.5 s at 100,000 jobs: only before changing the schema
      const problems = integrityProblems(db);
      if (problems.length > 0) {
        db.close();
        throw moveAside(`integrity check: ${problems.slice(0, 3).join('; ')}`);
      }
      backupPath = backUpJournal(db, options.path, fromVersion, now());
    }
    const migration = runMigrations(db, list, {
      journalPath: options.path,
      now,
    });
    const outputs = new OutputsRepository(db, now);
    return {
      path: options.path,
      schemaVersion: migration.toVersion,
      migration,
      backupPath,
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
      eventCursors: new EventCursorsRepository(db, now),
      projects: new ProjectsRepository(db, now),
      sequences: new SequencesRepository(db, now),
      deliveries: new DeliveriesRepository(db, now),
      variations: new VariationsRepository(db),
      marks: new MarksRepository(db, now),
      notes: new NotesRepository(db, now),
      collections: new CollectionsRepository(db, now),
      platformImageImports: new PlatformImageImportsRepository(db, now),
      storyboardLinks: new StoryboardLinksRepository(db, now),
      soundtracks: new SoundtracksRepository(db, now),
      transaction: (fn) => db.transaction(fn).immediate(),
      durable: () => whenDurable(db),
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
    if (db.open) db.close();
    if (onDisk && isCorruptionError(error)) throw moveAside((error as Error).message);
    throw error;
  }
}
