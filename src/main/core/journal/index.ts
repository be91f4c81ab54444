export { openJournal } from './open-journal.js';
export type { Journal, OpenJournalOptions } from './open-journal.js';
export { JournalTooNewError, JournalHistoryMismatchError } from './migrator.js';
export {
  JournalBackupError,
  JournalCorruptError,
  JOURNAL_BACKUP_DIR,
  JOURNAL_BACKUPS_KEPT,
} from './journal-safety.js';
export { IdempotencyConflictError, JournalNotFoundError, JournalStateError } from './errors.js';
export { canonicalJson } from './json.js';
export type { Page } from './pagination.js';
export * from './profiles-repository.js';
export * from './drafts-repository.js';
export * from './discovery-cache-repository.js';
export * from './local-files-repository.js';
export * from './uploads-repository.js';
export * from './prompt-optimizations-repository.js';
export * from './jobs-repository.js';
export * from './outputs-repository.js';
export * from './service-calls-repository.js';
export * from './projects-repository.js';
export * from './variations-repository.js';
export { SettingsRepository } from './settings-repository.js';
export * from './event-cursors-repository.js';
