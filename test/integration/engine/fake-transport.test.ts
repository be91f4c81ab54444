import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaJobAnswer } from '../../../src/shared/api/media-jobs.js';
import { JobEngine, type RunResult, type SubmitRequest } from '../../../src/main/core/jobs/job-engine.js';
import type { CreatePath, MediaJobTransport } from '../../../src/main/core/jobs/media-job-transport.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import { ApiError, OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * The job engine through a fake MediaJobTransport: no HTTP, no simulator. The fake keeps its own
 * jobs by idempotency key, as the platform does, so a replay under the same key returns the same job.
 */
const BYTES = Buffer.from('framewright fake result bytes');
const SHA = createHash('sha256').update(BYTES).digest('hex');

class FakePlatform implements MediaJobTransport {
  readonly clock = {
    now: () => Date.now(),
    // no real waiting, but a turn of the event loop, as a timer would give
    sleep: async (_ms: number, signal?: AbortSignal) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
    },
  };
  /** Every create that reached the platform: path, key and body. */
  readonly sends: { path: CreatePath; key: string; body: string }[] = [];
  readonly jobs = new Map<string, { job: MediaJobAnswer; polls: number }>();
  /** Creates whose answer is lost after the job was made (the outcome is unknown to the client). */
  loseAnswers = 0;
  /** Refuse creates with this HTTP status. */
  refuseWith: number | undefined;
  /** While true, polls answer `running`. */
  holdRunning = false;
  contentReads = 0;

  async createJob(path: CreatePath, body: Record<string, unknown>, key: string) {
    this.sends.push({ path, key, body: JSON.stringify(body) });
    if (this.refuseWith)
      throw new ApiError({
        status: this.refuseWith,
        apiCode: 'invalid_request',
        message: 'no',
        retryable: false,
      });
    let entry = this.jobs.get(key);
    const replay = entry !== undefined;
    if (!entry) {
      const jobId = `job-${this.jobs.size + 1}`;
      entry = {
        job: {
          jobId,
          requestId: `req-${jobId}`,
          status: 'queued',
          jobUrl: `https://fake.test/jobs/${jobId}`,
        },
        polls: 0,
      };
      this.jobs.set(key, entry);
    }
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      throw new OutcomeUnknownError('Create job', 'connection reset');
    }
    return { httpStatus: replay ? 200 : 202, job: entry.job, retryAfterSeconds: undefined };
  }

  async getJob(ref: { jobId: string }) {
    const entry = [...this.jobs.values()].find((e) => e.job.jobId === ref.jobId)!;
    entry.polls += 1;
    entry.job = this.holdRunning
      ? { ...entry.job, status: 'running' }
      : {
          ...entry.job,
          status: 'succeeded',
          outputs: [
            {
              assetId: `asset-${ref.jobId}`,
              contentUrl: `https://fake.test/assets/asset-${ref.jobId}/content`,
              mimeType: 'video/mp4',
              byteSize: BYTES.length,
              sha256: SHA,
            },
          ],
        };
    return { job: entry.job, retryAfterSeconds: undefined };
  }

  async openContentStream() {
    this.contentReads += 1;
    return {
      status: 200,
      contentType: 'video/mp4',
      contentLength: String(BYTES.length),
      body: Readable.from([BYTES]),
    };
  }
}

const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});

function setup() {
  const dir = tempFolder('fw-fake-transport-');
  const file = path.join(dir, 'journal.sqlite');
  const open = () => {
    const journal = openJournal({ path: file });
    journals.push(journal);
    return journal;
  };
  const journal = open();
  journal.profiles.create({ id: 'p', name: 'P', kind: 'simulator' });
  return { dir, open, journal, libraryDir: path.join(dir, 'library') };
}

function engineOver(
  journal: Journal,
  transport: MediaJobTransport,
  libraryDir: string,
  maxAttempts?: number,
) {
  return new JobEngine({
    journal,
    transportFor: async () => transport,
    libraryDir,
    create: { backoff: { initialMs: 1, maxMs: 5, factor: 2, jitter: 0 }, maxAttempts },
    pollBackoff: { initialMs: 1, maxMs: 5, factor: 1.5, jitter: 0 },
    download: { retryDelayMs: 1 },
  });
}

const request: SubmitRequest = {
  profileId: 'p',
  model: 'h3',
  serviceKind: 'video_generation',
  body: { model: 'h3', prompt: 'a kite over the dunes', generationMode: 't2v', seconds: 5 },
  idempotencyKey: 'draft-1',
};

function expectOneVerifiedResult(result: RunResult) {
  expect(result.state).toBe('succeeded');
  const output = result.job!.outputs[0]!;
  expect(output.downloadState).toBe('verified');
  expect(readFileSync(output.localPath!)).toEqual(BYTES);
}

describe('JobEngine over a fake MediaJobTransport (no HTTP)', () => {
  it('runs a job end to end; an unknown create outcome is re-sent under the same key and makes one job', async () => {
    const t = setup();
    const platform = new FakePlatform();
    platform.loseAnswers = 1;
    const result = await engineOver(t.journal, platform, t.libraryDir).submit(request);

    expectOneVerifiedResult(result);
    expect(platform.sends).toHaveLength(2);
    expect(new Set(platform.sends.map((s) => `${s.path} ${s.key} ${s.body}`)).size).toBe(1);
    expect(platform.jobs.size).toBe(1);
    expect(t.journal.jobs.getIntent('draft-1')!.state).toBe('accepted');
    expect(t.journal.jobs.getJobForIntent(result.intent.id)!.jobId).toBe('job-1');
  });

  it('resumes after a restart: a new engine over the same journal replays the unknown create and finishes the one job', async () => {
    const t = setup();
    const platform = new FakePlatform();
    platform.loseAnswers = 1;
    // one send per call: the lost answer leaves the intent unknown, kept for resume
    const first = await engineOver(t.journal, platform, t.libraryDir, 1).submit(request);
    expect(first.state).toBe('pending');
    expect(t.journal.jobs.getIntent('draft-1')!.state).toBe('unknown');
    t.journal.close();
    journals.splice(journals.indexOf(t.journal), 1);

    const reopened = t.open();
    const { results, errors } = await engineOver(reopened, platform, t.libraryDir).resume();

    expect(errors).toEqual([]);
    expect(results).toHaveLength(1);
    expectOneVerifiedResult(results[0]!);
    expect(platform.sends.map((s) => s.key)).toEqual(['draft-1', 'draft-1']);
    expect(platform.jobs.size).toBe(1);
    expect(platform.contentReads).toBe(1);
  });

  it("until: 'accepted' answers at acceptance while the job runs on, and reports the background end", async () => {
    const t = setup();
    const platform = new FakePlatform();
    platform.holdRunning = true;
    const engine = engineOver(t.journal, platform, t.libraryDir);
    let ended: (outcome: { result: RunResult } | { error: unknown }) => void = () => undefined;
    const background = new Promise<{ result: RunResult } | { error: unknown }>(
      (resolve) => (ended = resolve),
    );

    const answer = await engine.submit(request, { until: 'accepted', onBackgroundEnd: (o) => ended(o) });

    expect(answer.state).toBe('pending');
    expect(answer.job?.jobId).toBe('job-1');
    expect(existsSync(path.join(t.libraryDir))).toBe(false);
    platform.holdRunning = false;
    const end = await background;
    expect('result' in end && end.result.state).toBe('succeeded');
    if ('result' in end) expectOneVerifiedResult(end.result);
    await engine.stop();
  });

  it("until: 'accepted' rejects with the refusal when the create is refused, and the intent is rejected", async () => {
    const t = setup();
    const platform = new FakePlatform();
    platform.refuseWith = 422;
    const engine = engineOver(t.journal, platform, t.libraryDir);
    await expect(engine.submit(request, { until: 'accepted' })).rejects.toBeInstanceOf(ApiError);
    expect(t.journal.jobs.getIntent('draft-1')!.state).toBe('rejected');
    expect(platform.sends).toHaveLength(1);
  });
});

describe('JobEngine.createOrContinue: a key the journal holds is continued, never built again', () => {
  const { idempotencyKey: key, ...rest } = request;

  /** An engine over a fresh journal and fake platform, and a `build` that counts its calls (`builds()`). */
  function countingBuild(beforeAnswer: () => Promise<unknown> = async () => undefined) {
    const t = setup();
    const platform = new FakePlatform();
    const engine = engineOver(t.journal, platform, t.libraryDir);
    let builds = 0;
    const build = async () => {
      builds += 1;
      await beforeAnswer();
      return rest;
    };
    return { platform, engine, build, builds: () => builds };
  }

  it('builds and creates a new key once; the same key again continues the committed intent without building', async () => {
    const { platform, engine, build, builds } = countingBuild();
    const first = await engine.createOrContinue(key, build);
    const again = await engine.createOrContinue(key, build);

    expectOneVerifiedResult(first);
    expect(again.state).toBe('succeeded');
    expect(again.intent.id).toBe(first.intent.id);
    expect(builds()).toBe(1);
    expect(platform.jobs.size).toBe(1);
  });

  it('two calls for one new key at once build once and share one job', async () => {
    // an upload's time: the second call arrives while the first is still building
    const { platform, engine, build, builds } = countingBuild(
      () => new Promise((resolve) => setTimeout(resolve, 20)),
    );
    const [a, b] = await Promise.all([
      engine.createOrContinue(key, build),
      engine.createOrContinue(key, build),
    ]);

    expect(builds()).toBe(1);
    expect(a.intent.id).toBe(b.intent.id);
    expect(platform.jobs.size).toBe(1);
  });

  it('a build that fails commits nothing; the next call builds again', async () => {
    const t = setup();
    const platform = new FakePlatform();
    const engine = engineOver(t.journal, platform, t.libraryDir);
    await expect(
      engine.createOrContinue(key, async () => {
        throw new Error('upload refused');
      }),
    ).rejects.toThrow('upload refused');
    expect(t.journal.jobs.getIntent(key)).toBeUndefined();
    expectOneVerifiedResult(await engine.createOrContinue(key, async () => rest));
  });
});
