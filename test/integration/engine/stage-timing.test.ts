import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCoreParts, type CoreParts } from '../../../src/main/core/app/core-parts.js';
import type { EngineChange } from '../../../src/main/core/jobs/job-engine.js';
import type { StudioDrafts } from '../../../src/main/core/creating/drafts.js';
import { JobViews } from '../../../src/main/core/library/job-views.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { h3VideoSubmission } from '../../support/engine-harness.js';
import { FAST_ENGINE } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';

let sim: RunningSimulator;
let core: CoreParts;
const changes: EngineChange[] = [];

beforeAll(async () => {
  // slow enough that the engine's quick polls see each of the simulator's stages
  sim = await openSimulator({ timeScale: 0.3 });
  core = await openCoreParts({
    dataDir: tempFolder('fw-stages-'),
    launchSimulator: async () => ({ ...sim, close: async () => undefined }),
    secretStore: new UnavailableSecretStore('tests use the simulator token'),
    engine: FAST_ENGINE,
    onEngineChange: (change) => changes.push(change),
  });
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

describe('stage timings written by the engine, and the estimate they give', () => {
  it('records each stage the polls saw, tells each poll with its next poll planned, and estimates the next job of the same model and seconds', async () => {
    const profileId = (await core.profiles.list())[0]!.id;
    const views = new JobViews(core.journal, {
      drafts: {} as StudioDrafts,
      staged: { get: () => ({}) as never },
      host: BROWSER_HOST,
    });
    const first = await core.engine.submit({ ...h3VideoSubmission('stage-timing-1', 'A kite'), profileId });
    expect(first.state).toBe('succeeded');

    const history = core.journal.jobs.stageHistory(first.job!.id);
    expect(history[0]).toMatchObject({ status: 'queued', startedAt: first.job!.acceptedAt });
    expect(history.at(-1)).toMatchObject({ status: 'succeeded' });
    // the simulator's running stages (preparing_inputs, generating, encoding) the polls saw, once each
    const running = history.filter((h) => h.status === 'running').map((h) => h.stage);
    expect(running.length).toBeGreaterThan(0);
    expect(['preparing_inputs', 'generating', 'encoding']).toEqual(expect.arrayContaining(running));
    expect(new Set(running).size).toBe(running.length);
    for (let i = 1; i < history.length; i++)
      expect(history[i]!.startedAt).toBeGreaterThanOrEqual(history[i - 1]!.startedAt);

    // every poll of the job in progress was told with its next poll already planned
    const polled = changes.flatMap((c) =>
      c.type === 'job' && c.job.id === first.job!.id && c.job.pollCount > 0 ? [c.job] : [],
    );
    const inProgress = polled.filter((j) => j.status === 'queued' || j.status === 'running');
    expect(inProgress.length).toBeGreaterThan(0);
    for (const job of inProgress) expect(job.nextPollAt).toBeGreaterThan(job.lastPolledAt!);

    // the next job of the same model and seconds: an estimate from the one before
    const second = await core.engine.submit(
      { ...h3VideoSubmission('stage-timing-2', 'A kite again'), profileId },
      { noWait: true },
    );
    const view = views.jobView(second.job!);
    const took = (history.at(-1)!.startedAt - first.job!.acceptedAt) / 1000;
    expect(view.estimateBasis).toEqual({ samples: 1, model: 'h3-video', seconds: 5 });
    expect(view.expectedTotalSeconds).toBe(took);
    expect(view.expectedRemainingSeconds).toBeLessThanOrEqual(took);
    expect(view.stageStartedAt).toBe(second.job!.acceptedAt);
  });
});
