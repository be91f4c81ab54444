import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaJobAnswer } from '../../../src/shared/api/media-jobs.js';
import { JobWakeups } from '../../../src/main/core/platform/job-events/job-wakeups.js';
import { JobEngine } from '../../../src/main/core/jobs/job-engine.js';
import type { MediaJobTransport } from '../../../src/main/core/jobs/media-job-transport.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import { sleep } from '../../../src/main/core/api-clients/retry/backoff.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * Job events end a poll's back-off wait (the job is read at once, the read recorded before the
 * event counts as processed); a wait the server asked for (Retry-After) is never cut short.
 */
const BYTES = Buffer.from('framewright woken result');
const SHA = createHash('sha256').update(BYTES).digest('hex');

/** Answers `running` until `finish()`, then `succeeded`; waits really (the clock is the system's). */
function slowPlatform(retryAfterSeconds?: number) {
  let finished = false;
  const reads: number[] = [];
  const job: MediaJobAnswer = {
    jobId: 'job-1',
    requestId: 'req-1',
    status: 'queued',
    jobUrl: 'https://x.test/j/1',
  };
  const transport: MediaJobTransport = {
    clock: { now: () => Date.now(), sleep },
    createJob: async () => ({ httpStatus: 202, job, retryAfterSeconds: undefined }),
    getJob: async () => {
      reads.push(Date.now());
      return finished
        ? {
            job: {
              ...job,
              status: 'succeeded',
              outputs: [
                {
                  assetId: 'a1',
                  contentUrl: 'https://x.test/a1',
                  mimeType: 'video/mp4',
                  byteSize: BYTES.length,
                  sha256: SHA,
                },
              ],
            },
            retryAfterSeconds: undefined,
          }
        : { job: { ...job, status: 'running' }, retryAfterSeconds };
    },
    openContentStream: async () => ({
      status: 200,
      contentType: 'video/mp4',
      contentLength: String(BYTES.length),
      body: Readable.from([BYTES]),
    }),
  };
  return { transport, reads, finish: () => (finished = true) };
}

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

function engineWith(
  transport: MediaJobTransport,
  wakeups: JobWakeups,
): { engine: JobEngine; journal: Journal } {
  const dir = tempFolder('fw-poll-wake-');
  const journal = openJournal({ path: path.join(dir, 'journal.sqlite') });
  journal.profiles.create({ id: 'p', name: 'P', kind: 'simulator' });
  const engine = new JobEngine({
    journal,
    transportFor: async () => transport,
    libraryDir: path.join(dir, 'library'),
    // a minute between polls: only an event can make this test finish in time
    pollBackoff: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0 },
    pollWake: wakeups,
  });
  cleanup.push(() => {
    void engine.stop().then(() => {
      journal.close();
    });
  });
  return { engine, journal };
}

const request = {
  profileId: 'p',
  model: 'h3-video',
  serviceKind: 'video_generation',
  body: { model: 'h3-video', prompt: 'woken' },
  idempotencyKey: 'key-1',
};

describe('job events wake the engine’s poll', () => {
  it('each event reads the job at once; the job finishes long before the back-off would allow', async () => {
    const platform = slowPlatform();
    const wakeups = new JobWakeups();
    const { engine } = engineWith(platform.transport, wakeups);
    const started = Date.now();
    const run = engine.submit(request, { waitSeconds: 300 });
    await expect.poll(() => wakeups.wake('job-1'), { timeout: 5_000 }).toBe(true);
    expect(platform.reads).toHaveLength(1); // processed = the woken read recorded
    platform.finish();
    expect(await wakeups.wake('job-1')).toBe(true);
    const result = await run;
    expect(result.state).toBe('succeeded');
    expect(platform.reads).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a wait the server asked for (Retry-After) is not cut short by an event', async () => {
    const platform = slowPlatform(30);
    const wakeups = new JobWakeups();
    const { engine } = engineWith(platform.transport, wakeups);
    void engine.submit(request, { waitSeconds: 300 }).catch(() => undefined);
    await expect.poll(() => wakeups.wake('job-1'), { timeout: 5_000 }).toBe(true);
    expect(platform.reads).toHaveLength(1);
    // the platform said 30 s: the event finds no wakeable wait and the job is not read again
    expect(await wakeups.wake('job-1', 200)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(platform.reads).toHaveLength(1);
  });
});
