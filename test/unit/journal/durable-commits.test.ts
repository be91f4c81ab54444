import type * as FsPromises from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaJob } from '../../../src/shared/api/media-jobs.js';

/**
 * A durable commit (an intent, an acceptance, an optimization, a billed call recorded before its
 * request) is flushed to disk by an fdatasync of the -wal file on libuv's thread pool, and what
 * counts on it waits for that flush: the fdatasync here is held until the test lets it finish.
 */
const flushes = vi.hoisted(() => ({
  opened: [] as string[],
  waiting: [] as { resolve(): void; reject(error: Error): void }[],
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    open: async (file: string, flags: string) => {
      flushes.opened.push(file);
      const handle = await actual.open(file, flags);
      return {
        datasync: () => new Promise<void>((resolve, reject) => flushes.waiting.push({ resolve, reject })),
        close: () => handle.close(),
      };
    },
  };
});

const { durably, whenDurable } = await import('../../../src/main/core/journal/database.js');
const { openJournal } = await import('../../../src/main/core/journal/open-journal.js');
const { sendIntent } = await import('../../../src/main/core/jobs/create-job.js');
const { tempFolder } = await import('../../support/worlds/temp-folder.js');
const { RowEncryptedSecretStore } =
  await import('../../../src/main/core/secrets/row-encrypted-secret-store.js');

/** Lets the event loop run until `check` holds (the flush's open is itself asynchronous). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(check()).toBe(true);
}

/** Whether `promise` has settled, without waiting for it. */
function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return () => done;
}

/**
 * Checks that `promise` waits for the one flush under way (it has not settled while the flush is
 * held), then lets that flush finish; answers what the promise answers.
 */
async function afterTheFlush<T>(promise: Promise<T>): Promise<T> {
  const isSettled = settled(promise);
  await until(() => flushes.waiting.length === 1);
  expect(isSettled()).toBe(false);
  flushes.waiting.shift()!.resolve();
  return promise;
}

let journal: ReturnType<typeof openJournal>;
let file: string;
beforeEach(() => {
  flushes.opened.length = 0;
  flushes.waiting.length = 0;
  file = path.join(tempFolder('framewright-durable-'), 'journal.sqlite');
  journal = openJournal({ path: file });
  journal.profiles.create({ id: 'p', name: 'P', kind: 'personal', baseUrl: 'https://example.invalid/v1' });
});
afterEach(() => {
  for (const flush of flushes.waiting.splice(0)) flush.resolve();
  journal.close();
});

const recordIntent = (key: string) =>
  journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId: 'p',
    model: 'm',
    serviceKind: 'video_generation',
    body: { model: 'm', prompt: key },
  });

describe('durable commits', () => {
  it('are on disk once the -wal file’s fdatasync has finished, not before', async () => {
    recordIntent('intent-one');
    await afterTheFlush(journal.durable());
    expect(flushes.opened).toEqual([`${file}-wal`]);
  });

  it('share one flush between callers, and a commit made during a flush gets one more', async () => {
    recordIntent('intent-one');
    const first = journal.durable();
    const second = journal.durable();
    await until(() => flushes.waiting.length === 1);
    recordIntent('intent-two'); // committed while the first flush runs: it may not cover it
    const third = journal.durable();
    flushes.waiting.shift()!.resolve();
    await Promise.all([first, second]);
    await afterTheFlush(third);
    expect(flushes.opened).toHaveLength(2);
  });

  it('answer at once when nothing durable was committed since the last flush', async () => {
    await journal.durable();
    journal.settings.set('theme', 'dark'); // an ordinary commit owes no flush
    await journal.durable();
    expect(flushes.opened).toEqual([]);
  });

  it('reject their waiters when the flush fails, and the next wait flushes again', async () => {
    recordIntent('intent-one');
    const failing = journal.durable();
    await until(() => flushes.waiting.length === 1);
    flushes.waiting.shift()!.reject(new Error('EIO: i/o error'));
    await expect(failing).rejects.toThrow(/EIO/);
    const retried = journal.durable();
    await until(() => flushes.waiting.length === 1);
    flushes.waiting.shift()!.resolve();
    await retried;
  });

  it('joined into a caller’s transaction are flushed after its commit', async () => {
    const db = journal.database;
    db.transaction(() => durably(db, () => journal.settings.set('x', 1)))();
    const durable = whenDurable(db);
    await until(() => flushes.waiting.length === 1);
    flushes.waiting.shift()!.resolve();
    await durable;
  });
});

describe('a create request', () => {
  it('leaves only once its intent is on disk', async () => {
    const intent = recordIntent('intent-before-create');
    const sent: string[] = [];
    const transport = {
      createJob: async (_path: string, _body: unknown, key: string) => {
        sent.push(key);
        return {
          httpStatus: 202,
          retryAfterSeconds: undefined,
          job: { jobId: 'job_1', requestId: 'req_1', model: 'm', status: 'queued' } as MediaJob,
        };
      },
    };
    const created = sendIntent(journal, transport as never, intent);
    await until(() => flushes.waiting.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
    flushes.waiting.shift()!.resolve();
    await until(() => sent.length === 1);
    // the acceptance is a durable commit too: its flush follows
    await until(() => flushes.waiting.length === 1);
    flushes.waiting.shift()!.resolve();
    expect((await created).state).toBe('accepted');
    await journal.durable();
  });
});

describe('a secret written to the team backend’s store (a session, a recovery reference)', () => {
  it('is stored, and deleted, once its row is on disk', async () => {
    const dir = tempFolder('framewright-durable-secrets-');
    const dbFile = path.join(dir, 'secrets', 'platform-secrets.sqlite');
    const store = RowEncryptedSecretStore.open({
      dbFile,
      keyFile: path.join(dir, 'keys', 'secret-store.key'),
    });
    try {
      await afterTheFlush(store.set('job-recovery-ref:pjob_1', 'jrr_value_1'));
      expect(flushes.opened).toEqual([`${dbFile}-wal`]);
      expect(await afterTheFlush(store.delete('job-recovery-ref:pjob_1'))).toBe(true);
    } finally {
      store.close();
    }
  });
});
