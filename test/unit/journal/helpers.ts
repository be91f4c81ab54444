import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** A journal in a fresh temporary folder (removed when the test is done), with a controllable clock. */
export function tempJournal(start = Date.UTC(2026, 0, 1)) {
  const dir = tempFolder('framewright-journal-');
  const clock = { now: start };
  const file = path.join(dir, 'journal.sqlite');
  const journal: Journal = openJournal({ path: file, now: () => clock.now });
  return {
    dir,
    file,
    clock,
    journal,
    cleanup() {
      journal.close();
    },
  };
}

export const SHA_A = 'a'.repeat(64);
export const SHA_B = 'b'.repeat(64);

/** A journal at `file` as a newer Framewright would leave it: one migration this build does not know. */
export function journalFromNewerVersion(file: string): void {
  openJournal({ path: file }).close();
  const raw = new BetterSqlite3(file);
  raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)").run();
  raw.close();
}

/** A video job the platform accepted for `profileId` under `key`, recorded as the engine records one. */
export function acceptJob(journal: Journal, key: string, profileId: string, jobId: string) {
  journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId,
    model: 'h3',
    serviceKind: 'video_generation',
    body: { prompt: `prompt of ${key}`, model: 'h3' },
  });
  return journal.jobs.markAccepted(key, {
    jobId,
    requestId: `req-${jobId}`,
    jobUrl: `https://api.example.com/v1/jobs/${jobId}?model=h3`,
    status: 'queued',
    stage: 'queued',
    refreshAfterSeconds: 2,
    retryAfterSeconds: 2,
    body: {},
  });
}
